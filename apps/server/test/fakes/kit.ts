import type { FastifyReply, FastifyRequest } from "fastify";
import { type FakeFault, sendFault, takeFault } from "./app";

/**
 * What every provider fake shares beyond the app (./app.ts): the scripted-fault answer that
 * `POST /_fake/fail` and the tests queue on a part's `failNext`, so each fake holds only its
 * provider's shapes.
 */

/** A request's path without its query, as faults' `pathIncludes` are matched against. */
export const pathOf = (request: FastifyRequest): string => new URL(request.url, "http://fake").pathname;

/**
 * Answers the first scripted fault for this path, if one is queued: the reply sent, or null when the
 * request goes on to the fake's normal answer.
 */
export function answerFault(faults: FakeFault[], reply: FastifyReply, path: string): FastifyReply | null {
  const fault = takeFault(faults, path);
  return fault ? sendFault(reply, fault) : null;
}

/** A rank tracker's day as connectors/rank-tracking.ts counts it: the mean of ranked checks (2 decimals), top-3/10 counts. */
export function rankDay(positions: readonly (number | null)[]) {
  const ranked = positions.filter((pos): pos is number => pos !== null && pos > 0);
  return {
    averagePosition:
      ranked.length > 0 ? Math.round((ranked.reduce((sum, pos) => sum + pos, 0) / ranked.length) * 100) / 100 : null,
    keywordsTop3: ranked.filter((pos) => pos <= 3).length,
    keywordsTop10: ranked.filter((pos) => pos <= 10).length,
  };
}
