import { type TTable, ZWidgetDataRequest, ZWidgetDataResponse } from "@app/core";
import { LRUCache } from "lru-cache";
import { JsonText } from "../../infra/body-parsers";
import type { Cache } from "../../infra/cache";
import { bodyValue, parseInput } from "../../infra/http";
import type { SourcesService } from "../sources/service";
import { planRequest } from "./plan";
import { sourceKeyPrefix, stableJson } from "./query-runner";
import type { WidgetData } from "./widget-data";

export const ANSWER_CACHE_TTL_MS = 60_000;
export const ANSWER_CACHE_MAX_BYTES = 64 * 1024 * 1024;
/** Answers bigger than this are rebuilt from the table cache instead of being kept whole. */
export const ANSWER_CACHE_MAX_ENTRY_BYTES = 2 * 1024 * 1024;

let answersComputed = 0;

/**
 * Widget-data answers computed (not found among the kept ones) by this process so far: each is a
 * planning, the table cache's reads and a merge. Benchmarks and tests read the difference, as they do
 * query-runner.ts's upstream calls.
 */
export function widgetAnswersComputed(): number {
  return answersComputed;
}

/**
 * One answer of POST /api/widgets/data: `{data}` checked against the response contract and
 * serialised once, as the UTF-8 bytes sent on every hit (no re-serialising, no re-encoding). A
 * compressed copy (brotli, gzip) would be kept next to `json` the same way, made on first demand.
 */
export interface WidgetAnswer {
  readonly json: Buffer;
}

/**
 * The first and last step of the widget-data request: whole answers kept for repeated identical requests,
 * and the source versions that make a change of a source drop them (and its cached tables) in every process.
 */
export function widgetAnswerCache(sources: Pick<SourcesService, "onChange">, cache: Cache<TTable>) {
  // Whole answers, serialised, for repeated identical requests (a dashboard reloaded, shared, printed):
  // they skip planning, merging and response serialisation. Short-lived, and dropped with any source change.
  // Bounded by bytes, not entries: one answer over a large CSV can be megabytes (keys count too: a key
  // holds the request's text).
  const answers = new LRUCache<string, WidgetAnswer>({
    maxSize: ANSWER_CACHE_MAX_BYTES,
    sizeCalculation: (answer, key) => Math.max(1, answer.json.length + key.length),
    ttl: ANSWER_CACHE_TTL_MS,
  });
  // Versions make a request that was already running when its source changed write its result
  // under the old version, where nobody reads it again (dropping entries alone would race).
  // The version is the change's token from the event, the same in every process, so a process never
  // reads a table another one wrote for an older version of the source (the table cache may be shared).
  const sourceVersions = new Map<string, string>();
  let answersVersion = 0;
  // A source's new credentials or files make its cached tables (and answers built on them) stale, in
  // every process: the sources service calls this for changes made here and for `source.changed` events.
  sources.onChange((sourceId, version) => {
    sourceVersions.set(sourceId, version);
    answersVersion += 1;
    answers.clear();
    return cache.deletePrefix(sourceKeyPrefix(sourceId));
  });

  return {
    /** The table cache's name for a source as it is now (its id and its current version). */
    versioned: (sourceId: string) => `${sourceId}|v${sourceVersions.get(sourceId) ?? 0}`,

    /**
     * The `{data}` answer of POST /api/widgets/data, serialised. `body` is the request body, parsed or
     * still a JsonText. Only answers to bodies that passed validation are kept, so a hit on the exact
     * text (or the same value) may skip parsing and validating it again; the company is part of every key.
     * `data` computes the answer on a miss (widget-data.ts).
     */
    async dataAnswer(
      companyId: string,
      body: unknown,
      data: (companyId: string, request: ReturnType<typeof ZWidgetDataRequest.parse>) => Promise<WidgetData>,
    ): Promise<WidgetAnswer> {
      const version = answersVersion;
      // The same client sends the same text for the same widget: its exact text is tried first, unparsed.
      const textKey = body instanceof JsonText ? `${version}\u0002${companyId}\u0002${body.text}` : null;
      if (textKey !== null) {
        const hit = answers.get(textKey);
        if (hit !== undefined) return hit;
      }
      const value = await bodyValue(body);
      // The same value in other spacing, then in another key order (the order-independent key).
      const fastKey = `${version}\u0000${companyId}\u0000${JSON.stringify(value)}`;
      const keys = textKey === null ? [fastKey] : [textKey, fastKey];
      const fast = answers.get(fastKey);
      if (fast !== undefined) {
        if (textKey !== null) answers.set(textKey, fast);
        return fast;
      }
      const key = `${version}\u0001${companyId}\u0001${stableJson(value)}`;
      const cached = answers.get(key);
      if (cached !== undefined) {
        for (const other of keys) answers.set(other, cached);
        return cached;
      }
      const request = parseInput(ZWidgetDataRequest, value);
      answersComputed += 1;
      const computed = await data(companyId, request);
      // What the route's response serializer would send: checked (and stripped) by the contract.
      const answer: WidgetAnswer = {
        json: Buffer.from(JSON.stringify(ZWidgetDataResponse.parse({ data: computed }))),
      };
      // Partial failures are not kept: the next request retries the failing source. Live (realtime)
      // answers are not kept either: their tables are cached by the minute, the answer would outlive it.
      const live = planRequest(request).plans.some((planned) => planned.config.realtime === true);
      const stale = (computed.notices?.length ?? 0) > 0;
      if (!live && !stale && computed.errors.length === 0 && answer.json.length <= ANSWER_CACHE_MAX_ENTRY_BYTES) {
        for (const each of [key, ...keys]) answers.set(each, answer);
      }
      return answer;
    },
  };
}
