import { REALTIME_EVENTS } from "@app/core";
import type { AppContext } from "../../context";
import { broadcastToCompany } from "../../infra/broadcast";
import { newId } from "../../infra/security";
import { presentSource } from "./presenter";
import type { sourcesRepo } from "./repo";

export type SourceListener = (sourceId: string, version: string) => Promise<void>;

/**
 * How a change of a source reaches who cares: this process's listeners (the widget caches), every other
 * process (the event bus) and the members' open pages (realtime CompanySourceUpdated).
 */
export function sourceChanges(ctx: AppContext, repo: ReturnType<typeof sourcesRepo>) {
  const listeners: SourceListener[] = [];

  // A change is every process's business (their caches hold this source's tables): listeners here
  // run at once, before the answer, and the bus tells every process, this one again (the same version
  // twice changes nothing).
  ctx.events.subscribe("source.changed", async ({ sourceId, version }) => {
    const token = version ?? newId();
    for (const listener of listeners) await listener(sourceId, token);
  });

  async function changed(companyId: string, sourceId: string) {
    const version = newId();
    for (const listener of listeners) await listener(sourceId, version);
    await ctx.events.publish("source.changed", { companyId, sourceId, version });
  }

  /** docs/product.md §4 CompanySourceUpdated: members' browsers update their sources and refresh that source's widgets. */
  async function announce(companyId: string, sourceId: string) {
    const sources = (await repo.listByCompany(companyId)).map(presentSource);
    await broadcastToCompany(ctx, companyId, REALTIME_EVENTS.sourceUpdated, { sources, id: sourceId });
  }

  return {
    changed,
    announce,

    /** Banner 125 from now on; members' open pages learn it at once (CompanySourceUpdated, docs/product.md §4). */
    async markInvalid(companyId: string, sourceId: string): Promise<void> {
      if (!(await repo.invalidate(companyId, sourceId))) return;
      // Cached tables go too: the next view reads the stored results, which say the source needs reconnecting.
      await changed(companyId, sourceId);
      await announce(companyId, sourceId);
    },

    /** Registers a callback run after a source's credentials or files change or it is deleted (cache invalidation). */
    onChange(listener: SourceListener): void {
      listeners.push(listener);
    },
  };
}

export type SourceChanges = ReturnType<typeof sourceChanges>;
