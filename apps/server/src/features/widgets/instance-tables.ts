import {
  applyCalculatedMetrics,
  type DayRange,
  DEFAULT_CURRENCY,
  METRICS_PARAM,
  type MetricChoice,
  metricsToFetch,
  parseExpression,
  type TTable,
  type TWidgetInstance,
  withoutMetrics,
} from "@app/core";
import type { LoadedSource, SourcesService } from "../sources/service";
import type { PlannedInstance } from "./plan";
import { type createQueryRunner, queryCacheKey } from "./query-runner";

/**
 * The tables of one planned instance: which metrics to fetch (withNamedMetrics), then each range's table
 * through the cache and single-flight (query-runner.ts) from the sources service's stored results and
 * connector (sources/stored-results.ts), then finished for this instance (calculated metrics, currency).
 */
export function instanceTables(
  sources: Pick<SourcesService, "query" | "guard">,
  runner: ReturnType<typeof createQueryRunner>,
  versioned: (sourceId: string) => string,
) {
  return {
    async fetchTable(
      companyId: string,
      plan: PlannedInstance,
      source: LoadedSource,
      range: DayRange,
      timezone: string,
      extra: readonly string[],
      companions: readonly DayRange[] = [],
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
            { type: plan.config.type, inputs: plan.inputs, range, timezone, companions },
            plan.config.realtime === true,
          );
          // A stored result served for a failing provider travels with its notice (cached briefly like any table).
          return answer.notice ? { ...answer.table, notice: answer.notice } : answer.table;
        },
        source.connector.key,
      );
      const { notice, ...plain } = table;
      return { table: finish(plain, plan.instance, extra), notice: notice ?? null };
    },

    /**
     * The metrics the query fetches: the chosen ones plus those the calculated metrics' expressions name
     * (docs/product.md §5: a calculated metric alone is enough). `extra` are fetched only for the expressions.
     */
    async withNamedMetrics(
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
    },
  };
}

export type InstanceTables = ReturnType<typeof instanceTables>;

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
