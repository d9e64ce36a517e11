import type { TOption, TSourceOptionQuery } from "@app/core";
import { type Connector, ConnectorError, ProviderError, type SourceHandle } from "../../connectors";
import type { SourcesTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { seal } from "../../infra/security";
import type { Actor } from "../users/service";
import { unsealCredentials } from "./credentials";
import type { SourceDeps } from "./deps";
import { storedProperties } from "./presenter";

/** A source that could not answer, already marked invalid: answered 502 source_error ('Data Error'). */
export class SourceFailure extends AppError {
  constructor(readonly sourceId: string) {
    super("source_error");
  }
}

/** A source loaded for a connector call: its row, its connector and what the connector may see of it. */
export interface LoadedSource {
  row: SourcesTable;
  connector: Connector;
  handle: SourceHandle;
}

/**
 * Calling a source's connector: `load` opens the source (its credentials, files and runtime), `guard` runs
 * the call and decides what a failure means for the source, `options` is one such call (a form's list).
 */
export function connectorCallUseCases({ ctx, repo, files, runtime, changes, loadRow, connectorOf }: SourceDeps) {
  const useCases = {
    /** The source ready for a connector call; 404 unless it belongs to the company. */
    async load(companyId: string, id: string): Promise<LoadedSource> {
      const row = await loadRow(companyId, id);
      const connector = connectorOf(row);
      let credentials: Record<string, string> = {};
      if (row.credentials) {
        try {
          credentials = unsealCredentials(ctx.config.appKey, row.credentials);
        } catch {
          // Credentials sealed under another APP_KEY cannot be opened: the source needs re-authorising.
          await changes.markInvalid(companyId, id);
          throw new SourceFailure(id);
        }
      }
      const handle: SourceHandle = {
        id: row.id,
        companyId,
        connector: row.name,
        account: row.account,
        credentials,
        properties: storedProperties(row),
        readFile: (fileId) => files.read(companyId, fileId),
        saveCredentials: async (next) => {
          await repo.update(companyId, id, { credentials: seal(ctx.config.appKey, JSON.stringify(next)) });
          handle.credentials = next;
        },
        runtime,
      };
      return { row, connector, handle };
    },

    /**
     * Runs a connector call. Only a lost grant makes the source invalid (banner 125, the user must
     * re-authorise): a provider's `auth` failure, or a connector's own ConnectorError (a CSV file gone
     * from storage). A provider that is down, throttling or out of quota leaves the source valid (a 503
     * must never cost a customer a re-authorisation); its inputs being wrong is a 422 on the form.
     */
    async guard<T>(companyId: string, sourceId: string, call: () => Promise<T>): Promise<T> {
      try {
        return await call();
      } catch (error) {
        if (error instanceof SourceFailure || (error instanceof AppError && error.code !== "source_error")) throw error;
        if (error instanceof ProviderError && error.kind !== "auth") {
          ctx.logger.warn({ err: error, sourceId, kind: error.kind }, "provider failed; the source stays valid");
          if (error.kind === "input") {
            throw AppError.validation({
              [error.field ?? "general"]: [`The provider refused these settings: ${error.reason}`],
            });
          }
          throw error;
        }
        if (!(error instanceof ConnectorError)) {
          // Our own bug, not the source's: answered 'Data Error' without asking the user to re-authorise.
          ctx.logger.error({ err: error, sourceId }, "connector call failed unexpectedly");
          throw new AppError("source_error");
        }
        ctx.logger.warn({ err: error, sourceId }, "source query failed");
        await changes.markInvalid(companyId, sourceId);
        throw new SourceFailure(sourceId);
      }
    },

    /** GET /api/sources/{id}/{option}: a remote option list for the type form's current values. */
    async options(actor: Actor, id: string, kind: string, form: TSourceOptionQuery): Promise<TOption[]> {
      const { connector, handle } = await useCases.load(actor.companyId, id);
      return useCases.guard(actor.companyId, id, () => connector.options(kind, { source: handle, form }));
    },
  };
  return useCases;
}

export type ConnectorCalls = ReturnType<typeof connectorCallUseCases>;
