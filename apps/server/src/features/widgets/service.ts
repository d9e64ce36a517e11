import type { TTable, TWidgetDataRequest } from "@app/core";
import type { Cache } from "../../infra/cache";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import type { SourcesService } from "../sources/service";
import { type WidgetAnswer, widgetAnswerCache } from "./answer-cache";
import { instanceTables } from "./instance-tables";
import { createQueryRunner } from "./query-runner";
import { type WidgetData, widgetData } from "./widget-data";

export {
  ANSWER_CACHE_MAX_BYTES,
  ANSWER_CACHE_MAX_ENTRY_BYTES,
  ANSWER_CACHE_TTL_MS,
  type WidgetAnswer,
} from "./answer-cache";
export { MAX_RANGE_DAYS } from "./plan";

/**
 * The data path of widgets (docs/architecture.md, "One widget-data request"), one module per step, in the
 * order a request takes them: answer-cache.ts (a kept answer?) → plan.ts (validate) → widget-data.ts (load
 * the sources, one result per instance, merge) → instance-tables.ts (metrics to fetch; table cache and
 * single-flight in query-runner.ts; the sources service's stored results and connector call) → back.
 */
export function widgetsService(
  sources: SourcesService,
  cache: Cache<TTable>,
  leases?: Pick<RateLimitStore, "acquire" | "release">,
  /** The product's clock: goals count their days left from today (tests set it). */
  now: () => Date = () => new Date(),
) {
  const answers = widgetAnswerCache(sources, cache);
  const tables = instanceTables(sources, createQueryRunner(cache, leases), answers.versioned);
  const { data } = widgetData(sources, tables, now);
  return {
    /** The serialised `{data}` answer of POST /api/widgets/data (answer-cache.ts). */
    dataAnswer: (companyId: string, body: unknown): Promise<WidgetAnswer> => answers.dataAnswer(companyId, body, data),
    /** POST /api/widgets/data for the company's session; throws SourceFailure when every instance's source failed. */
    data: (companyId: string, request: TWidgetDataRequest): Promise<WidgetData> => data(companyId, request),
  };
}

export type WidgetsService = ReturnType<typeof widgetsService>;
