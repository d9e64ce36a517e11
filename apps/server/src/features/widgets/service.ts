import {
  applyCalculatedMetrics,
  type DayRange,
  DEFAULT_CURRENCY,
  defaultCompareRange,
  METRICS_PARAM,
  type MetricChoice,
  metricsToFetch,
  parseExpression,
  rangeLength,
  type TTable,
  type TWidgetDataRequest,
  type TWidgetDataResponse,
  type TWidgetInstance,
  type TWidgetParam,
  type TWidgetTypeConfig,
  uniquePrefix,
  validateTypeForm,
  withoutMetrics,
  ZWidgetDataRequest,
  ZWidgetDataResponse,
} from "@app/core";
import { LRUCache } from "lru-cache";
import { ProviderError, widgetType } from "../../connectors";
import { JsonText } from "../../infra/body-parsers";
import type { Cache } from "../../infra/cache";
import { AppError } from "../../infra/errors";
import { bodyValue, parseInput } from "../../infra/http";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import { type LoadedSource, SourceFailure, type SourcesService } from "../sources/service";
import { mergeInstanceTables } from "./merge-tables";
import { createQueryRunner, normaliseInputs, queryCacheKey, sourceKeyPrefix, stableJson } from "./query-runner";

/** Longest range one request may ask for: three years by day bounds the work of a single widget. */
export const MAX_RANGE_DAYS = 1096;
export const ANSWER_CACHE_TTL_MS = 60_000;
export const ANSWER_CACHE_MAX_BYTES = 64 * 1024 * 1024;
/** Answers bigger than this are rebuilt from the table cache instead of being kept whole. */
export const ANSWER_CACHE_MAX_ENTRY_BYTES = 2 * 1024 * 1024;

type WidgetData = TWidgetDataResponse["data"];

/**
 * One answer of POST /api/widgets/data: `{data}` checked against the response contract and
 * serialised once, as the UTF-8 bytes sent on every hit (no re-serialising, no re-encoding). A
 * compressed copy (brotli, gzip) would be kept next to `json` the same way, made on first demand.
 */
export interface WidgetAnswer {
  readonly json: Buffer;
}
type Fields = Record<string, string[]>;

interface PlannedInstance {
  index: number;
  instance: TWidgetInstance;
  prefix: string;
  config: TWidgetTypeConfig;
  inputs: Record<string, unknown>;
}

function flattenParams(params: readonly TWidgetParam[]): TWidgetParam[] {
  return params.flatMap((param) => [param, ...flattenParams(param.children ?? [])]);
}

/** 'has_footer' → 'has footer', 'conversionMetric' → 'conversion metric' (the Laravel-style messages of other forms). */
function fieldName(key: string): string {
  return key
    .replace(/_/g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
}

/** docs/product.md §5 type-form rules plus fixed option lists: what is wrong with one instance's inputs. */
function inputErrors(config: TWidgetTypeConfig, instance: TWidgetInstance, at: string): Fields {
  const fields: Fields = {};
  const params = flattenParams(config.params);
  for (const key of validateTypeForm(config.params, instance.inputs)) {
    fields[`${at}.inputs.${key}`] = [`The ${fieldName(key)} field is required.`];
  }
  for (const param of params) {
    const value = instance.inputs[param.key];
    if (!param.options || value === undefined || value === null || value === "" || fields[`${at}.inputs.${param.key}`])
      continue;
    const allowed = new Set(param.options.map((option) => option.value));
    const unknown = (Array.isArray(value) ? value : [value]).map(String).filter((item) => !allowed.has(item));
    if (unknown.length > 0) fields[`${at}.inputs.${param.key}`] = [`Unknown value: ${unknown.join(", ")}.`];
  }
  return fields;
}

function rangeErrors(range: DayRange, field: string): Fields {
  if (range.startDate > range.endDate) return { [field]: ["The end date is before the start."] };
  if (rangeLength(range) > MAX_RANGE_DAYS)
    return { [field]: [`The date range may not be longer than ${MAX_RANGE_DAYS} days.`] };
  return {};
}

/** The data path of widgets (docs/decisions.md, the widget data path): cache → single-flight → connector → calculated metrics → merge. */
export function widgetsService(
  sources: SourcesService,
  cache: Cache<TTable>,
  leases?: Pick<RateLimitStore, "acquire" | "release">,
) {
  const runner = createQueryRunner(cache, leases);
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
  const versioned = (sourceId: string) => `${sourceId}|v${sourceVersions.get(sourceId) ?? 0}`;
  // A source's new credentials or files make its cached tables (and answers built on them) stale, in
  // every process: the sources service calls this for changes made here and for `source.changed` events.
  sources.onChange((sourceId, version) => {
    sourceVersions.set(sourceId, version);
    answersVersion += 1;
    answers.clear();
    return cache.deletePrefix(sourceKeyPrefix(sourceId));
  });

  /** Validates the whole request before any query, so a bad field never costs an upstream call. */
  function plan(request: TWidgetDataRequest): {
    plans: PlannedInstance[];
    current: DayRange;
    previous: DayRange | null;
  } {
    const current = { startDate: request.startDate, endDate: request.endDate };
    let previous: DayRange | null = null;
    if (request.comparison) {
      previous =
        request.compareStartDate && request.compareEndDate
          ? { startDate: request.compareStartDate, endDate: request.compareEndDate }
          : defaultCompareRange(current.startDate, current.endDate);
    }
    const fields: Fields = {
      ...rangeErrors(current, "endDate"),
      ...(previous ? rangeErrors(previous, "compareEndDate") : {}),
    };
    const used = new Set<string>();
    const plans: PlannedInstance[] = [];
    request.instances.forEach((instance, index) => {
      const at = `instances.${index}`;
      // Prefixes made unique as docs/product.md §4 merging does (core uniquePrefix), so column keys never collide.
      const prefix = uniquePrefix(instance.prefix, used);
      used.add(prefix);
      const found = widgetType(instance.type);
      if (!found) fields[`${at}.type`] = ["The selected widget type is invalid."];
      if (!instance.sourceId) fields[`${at}.sourceId`] = ["The source field is required."];
      if (!found) return;
      Object.assign(fields, inputErrors(found.config, instance, at));
      plans.push({
        index,
        instance,
        prefix,
        config: found.config,
        inputs: normaliseInputs(found.config, instance.inputs),
      });
    });
    if (Object.keys(fields).length > 0) throw AppError.validation(fields);
    return { plans, current, previous };
  }

  /** Connector validation names fields of the inputs; the request's fields are per instance. */
  function withinInstance(error: unknown, index: number): unknown {
    if (!(error instanceof AppError) || error.code !== "validation") return error;
    const fields = Object.fromEntries(
      Object.entries(error.fields ?? {}).map(([key, messages]) => [`instances.${index}.inputs.${key}`, messages]),
    );
    return AppError.validation(fields, error.message);
  }

  async function fetchTable(
    companyId: string,
    plan: PlannedInstance,
    source: LoadedSource,
    range: DayRange,
    timezone: string,
    extra: readonly string[],
  ) {
    const key = queryCacheKey({
      // Still starts with sourceKeyPrefix(id), so deletePrefix drops every version.
      sourceId: versioned(source.row.id),
      type: plan.config.type,
      // Live data is of the current minute whatever the range: the minute is its key, so it is
      // asked again once a minute, and identical requests within the minute still share one call.
      inputs: plan.config.realtime ? { ...plan.inputs, minute: Math.floor(Date.now() / 60_000) } : plan.inputs,
      range,
      timezone,
    });
    const table = await runner.run(
      key,
      async () => {
        const answer = await sources.query(
          companyId,
          source,
          { type: plan.config.type, inputs: plan.inputs, range, timezone },
          plan.config.realtime === true,
        );
        // A stored result served for a failing provider travels with its notice (cached briefly like any table).
        return answer.notice ? { ...answer.table, notice: answer.notice } : answer.table;
      },
      source.connector.key,
    );
    const { notice, ...plain } = table;
    return { table: finish(plain, plan.instance, extra), notice: notice ?? null };
  }

  /**
   * The metrics the query fetches: the chosen ones plus those the calculated metrics' expressions name
   * (docs/product.md §5: a calculated metric alone is enough). `extra` are fetched only for the expressions.
   */
  async function withNamedMetrics(
    companyId: string,
    plan: PlannedInstance,
    source: LoadedSource,
  ): Promise<{ plan: PlannedInstance; extra: string[] }> {
    const calculated = plan.instance.inputs.calculatedMetrics ?? [];
    const chosen = Array.isArray(plan.inputs[METRICS_PARAM])
      ? (plan.inputs[METRICS_PARAM] as unknown[]).map(String)
      : [];
    const param = plan.config.params.find((candidate) => candidate.key === METRICS_PARAM);
    const names = calculated.flatMap((metric) => {
      const parsed = parseExpression(metric.expression);
      return parsed.ok ? parsed.metrics : [];
    });
    const own = new Set(calculated.flatMap((metric) => [metric.id, metric.name]));
    const missing = names.some((name) => !own.has(name) && !chosen.includes(name));
    if (!param || !missing) return { plan, extra: [] };
    // Expressions may name a metric by its label, so the type's metric list resolves names to keys;
    // a list the provider serves (CSV columns) is asked for only when a name is not already chosen.
    let offered: MetricChoice[] = param.options ?? [];
    if (!param.options && param.remote) {
      const remote = param.remote;
      const form = Object.fromEntries(
        Object.entries(plan.inputs).map(([key, value]) => [
          key,
          Array.isArray(value) ? value.map(String) : String(value),
        ]),
      );
      offered = await sources.guard(companyId, source.row.id, () =>
        source.connector.options(remote, { source: source.handle, form: { ...form, type: plan.config.type } }),
      );
    }
    const { fetch, extra } = metricsToFetch(chosen, calculated, offered);
    if (extra.length === 0) return { plan, extra };
    return { plan: { ...plan, inputs: { ...plan.inputs, [METRICS_PARAM]: fetch } }, extra };
  }

  /**
   * Per-instance presentation after the cache: calculated metrics, then the columns fetched only for
   * them are dropped, then the currency of every money column.
   */
  function finish(table: TTable, instance: TWidgetInstance, extra: readonly string[]): TTable {
    const calculated = withoutMetrics(applyCalculatedMetrics(table, instance.inputs.calculatedMetrics ?? []), extra);
    const currency = instance.currency || null;
    return {
      ...calculated,
      metrics: calculated.metrics.map((metric) =>
        metric.format === "money" ? { ...metric, currency: currency ?? metric.currency ?? DEFAULT_CURRENCY } : metric,
      ),
    };
  }

  const service = {
    /**
     * The `{data}` answer of POST /api/widgets/data, serialised. `body` is the request body, parsed or
     * still a JsonText. Only answers to bodies that passed validation are kept, so a hit on the exact
     * text (or the same value) may skip parsing and validating it again; the company is part of every key.
     */
    async dataAnswer(companyId: string, body: unknown): Promise<WidgetAnswer> {
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
      const data = await service.data(companyId, request);
      // What the route's response serializer would send: checked (and stripped) by the contract.
      const answer: WidgetAnswer = { json: Buffer.from(JSON.stringify(ZWidgetDataResponse.parse({ data }))) };
      // Partial failures are not kept: the next request retries the failing source. Live (realtime)
      // answers are not kept either: their tables are cached by the minute, the answer would outlive it.
      const live = plan(request).plans.some((planned) => planned.config.realtime === true);
      const stale = (data.notices?.length ?? 0) > 0;
      if (!live && !stale && data.errors.length === 0 && answer.json.length <= ANSWER_CACHE_MAX_ENTRY_BYTES) {
        for (const each of [key, ...keys]) answers.set(each, answer);
      }
      return answer;
    },

    /** POST /api/widgets/data for the company's session; throws SourceFailure when every instance's source failed. */
    async data(companyId: string, request: TWidgetDataRequest): Promise<WidgetData> {
      const planned = plan(request);
      const { plans, current } = planned;
      const loaded = new Map<string, LoadedSource>();
      for (const { instance, config, index } of plans) {
        const sourceId = instance.sourceId as string;
        if (!loaded.has(sourceId)) loaded.set(sourceId, await sources.load(companyId, sourceId));
        if (loaded.get(sourceId)?.connector.key !== config.connector) {
          throw AppError.validation({
            [`instances.${index}.sourceId`]: ["The source does not offer this widget type."],
          });
        }
      }
      // Tables that ignore the range (a CSV without dates) have nothing to compare with: no previous table.
      // Live types are of the last minutes whatever the range: a comparison would repeat the same numbers.
      const followsRange = plans.some(
        (item) =>
          item.config.realtime !== true &&
          (loaded.get(item.instance.sourceId as string)?.connector.followsRange?.(item.inputs) ?? true),
      );
      const previous = followsRange ? planned.previous : null;
      const results = await Promise.all(
        plans.map(async (planned) => {
          const source = loaded.get(planned.instance.sourceId as string) as LoadedSource;
          let plan = planned;
          try {
            const named = await withNamedMetrics(companyId, planned, source);
            plan = named.plan;
            const [now, before] = await Promise.all([
              fetchTable(companyId, plan, source, current, request.timezone, named.extra),
              previous
                ? fetchTable(companyId, plan, source, previous, request.timezone, named.extra)
                : Promise.resolve(null),
            ]);
            return {
              plan,
              now: now.table,
              before: before?.table ?? null,
              notice: now.notice ?? before?.notice ?? null,
              failure: null,
            };
          } catch (error) {
            if (error instanceof SourceFailure) return { plan, now: null, before: null, notice: null, failure: null };
            // A provider failing for now (nothing stored to show instead): this instance's error says why.
            if (error instanceof ProviderError && error.kind !== "input" && error.kind !== "auth") {
              const failure = error.notice(source.connector.displayName);
              return { plan, now: null, before: null, notice: null, failure };
            }
            throw withinInstance(error, plan.index);
          }
        }),
      );
      // Listed in instance order, whatever order the sources answered in.
      const errors: WidgetData["errors"] = results
        .filter((result) => result.now === null)
        .map((result) => ({
          instanceId: result.plan.instance.id,
          message: result.failure ? `Data Error: ${result.failure}` : "Data Error",
        }));
      const ok = results.flatMap((result) =>
        result.now ? [{ prefix: result.plan.prefix, now: result.now, before: result.before }] : [],
      );
      if (ok.length === 0) throw new SourceFailure(String(plans[0]?.instance.sourceId));
      const several = request.instances.length > 1;
      return {
        current: mergeInstanceTables(
          ok.map((result) => ({ prefix: result.prefix, table: result.now })),
          several,
        ),
        previous: previous
          ? mergeInstanceTables(
              ok.map((result) => ({ prefix: result.prefix, table: result.before as TTable })),
              several,
            )
          : null,
        errors,
        notices: results.flatMap((result) =>
          result.now && result.notice ? [{ instanceId: result.plan.instance.id, ...result.notice }] : [],
        ),
        // The filters of the instances whose numbers are shown, named as their columns are (merge-tables).
        filters: results.flatMap(({ plan: { instance, inputs, prefix }, now }) => {
          const text = now ? widgetType(instance.type)?.connector.describeFilter?.(instance.type, inputs) : null;
          return text ? [{ instanceId: instance.id, text: several ? `${text} (${prefix})` : text }] : [];
        }),
      };
    },
  };
  return service;
}

export type WidgetsService = ReturnType<typeof widgetsService>;
