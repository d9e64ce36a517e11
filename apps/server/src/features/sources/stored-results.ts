import { createHash } from "node:crypto";
import type { TTable } from "@app/core";
import { ProviderError, type QueryRequest } from "../../connectors";
import { type ConnectorCalls, type LoadedSource, SourceFailure } from "./connector-calls";
import type { SourceDeps } from "./deps";
import { storedResultFresh } from "./freshness";

/** What a query answers: the table, and a notice when it is a kept result standing in for a fresh one. */
export interface QueryAnswer {
  table: TTable;
  notice: { asOf: string; message: string } | null;
}

/** The equal-queries key of a stored result: the inputs arrive normalised (declared keys, sorted). */
function queryKeyOf(request: Omit<QueryRequest, "source">): string {
  return createHash("sha256")
    .update(
      JSON.stringify([request.type, request.inputs, request.range.startDate, request.range.endDate, request.timezone]),
    )
    .digest("hex");
}

/** One connector query through the company's stored results (docs/decisions.md, "Persistent results"). */
export function storedResultUseCases({ ctx, repo }: SourceDeps, { guard }: Pick<ConnectorCalls, "guard">) {
  return {
    /**
     * One connector query through the stored results (docs/decisions.md, "Persistent results"): a stored
     * result fresh by its age is served without asking; otherwise the provider is asked and the answer
     * stored. When the provider fails for now (quota, throttling, an outage) the last stored result is
     * served with a notice instead of nothing. Connectors without a settling window (Demo, CSV) are
     * asked directly.
     */
    async query(
      companyId: string,
      source: LoadedSource,
      request: Omit<QueryRequest, "source">,
      live = false,
    ): Promise<QueryAnswer> {
      const ask = () =>
        guard(companyId, source.row.id, () => source.connector.query({ ...request, source: source.handle }));
      const settlingDays = source.connector.settlingDays;
      // Live data is of this minute: nothing to keep.
      if (settlingDays === undefined || live) return { table: await ask(), notice: null };
      const queryKey = queryKeyOf(request);
      const stored = await repo.findResult(companyId, source.row.id, queryKey);
      // A source waiting to be re-authorised cannot be asked: its last numbers stand, saying so.
      const reconnect = () =>
        stored
          ? {
              table: JSON.parse(stored.table_json) as TTable,
              notice: { asOf: stored.fetched_at, message: `${source.connector.displayName} needs to be reconnected` },
            }
          : null;
      if (source.row.invalid) {
        const kept = reconnect();
        if (kept) return kept;
      }
      const now = ctx.clock.now().getTime();
      if (
        stored &&
        storedResultFresh(
          { rangeEnd: stored.range_end, fetchedAt: Date.parse(stored.fetched_at) },
          settlingDays,
          now,
          request.timezone,
        )
      ) {
        return { table: JSON.parse(stored.table_json) as TTable, notice: null };
      }
      try {
        const table = await ask();
        await repo.saveResult({
          source_id: source.row.id,
          query_key: queryKey,
          company_id: companyId,
          range_end: request.range.endDate,
          table_json: JSON.stringify(table),
          fetched_at: new Date(now).toISOString(),
        });
        return { table, notice: null };
      } catch (error) {
        if (stored && error instanceof ProviderError && ["quota", "rate", "server"].includes(error.kind)) {
          return {
            table: JSON.parse(stored.table_json) as TTable,
            notice: { asOf: stored.fetched_at, message: error.notice(source.connector.displayName) },
          };
        }
        // The grant was lost just now (the source is marked invalid, banner 125): the stored numbers stay on screen.
        const kept = error instanceof SourceFailure ? reconnect() : null;
        if (kept) return kept;
        throw error;
      }
    },
  };
}
