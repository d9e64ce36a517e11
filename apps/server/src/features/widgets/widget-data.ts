import type { DayRange, TTable, TWidgetDataRequest, TWidgetDataResponse } from "@app/core";
import { ProviderError, widgetType } from "../../connectors";
import { AppError } from "../../infra/errors";
import { type LoadedSource, SourceFailure, type SourcesService } from "../sources/service";
import { goalsOf } from "./goals";
import type { InstanceTables } from "./instance-tables";
import { mergeInstanceTables } from "./merge-tables";
import { type PlannedInstance, planRequest, withinInstance } from "./plan";

export type WidgetData = TWidgetDataResponse["data"];

/** One instance's outcome: its tables, or why it has none (a failed source, a provider failing for now). */
interface InstanceResult {
  plan: PlannedInstance;
  now: TTable | null;
  before: TTable | null;
  notice: { asOf: string; message: string } | null;
  failure: string | null;
}

/**
 * The widget-data request after its cache (answer-cache.ts), in the order it runs: plan (plan.ts) → load
 * each source (sources/connector-calls.ts) → each instance's tables (instance-tables.ts) → merge
 * (merge-tables.ts) into the `{data}` answer.
 */
export function widgetData(sources: Pick<SourcesService, "load">, tables: InstanceTables, now: () => Date) {
  /** Loads each instance's source once, and checks it offers the instance's widget type. */
  async function loadSources(companyId: string, plans: PlannedInstance[]): Promise<Map<string, LoadedSource>> {
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
    return loaded;
  }

  async function instanceResult(
    companyId: string,
    planned: PlannedInstance,
    source: LoadedSource,
    request: TWidgetDataRequest,
    ranges: { current: DayRange; previous: DayRange | null },
  ): Promise<InstanceResult> {
    let plan = planned;
    try {
      const named = await tables.withNamedMetrics(companyId, planned, source);
      plan = named.plan;
      // Each range is told of the other: a provider that answers both in one request is asked once.
      const [now, before] = await allEnded([
        tables.fetchTable(
          companyId,
          plan,
          source,
          ranges.current,
          request.timezone,
          named.extra,
          ranges.previous ? [ranges.previous] : [],
        ),
        ranges.previous
          ? tables.fetchTable(companyId, plan, source, ranges.previous, request.timezone, named.extra, [ranges.current])
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
  }

  /** The request's merged tables, errors and notices: the answer without its goals. */
  async function tablesOf(companyId: string, request: TWidgetDataRequest): Promise<WidgetData> {
    const planned = planRequest(request);
    const { plans, current } = planned;
    const loaded = await loadSources(companyId, plans);
    // Tables that ignore the range (a CSV without dates) have nothing to compare with: no previous table.
    // Live types are of the last minutes whatever the range: a comparison would repeat the same numbers.
    const followsRange = plans.some(
      (item) =>
        item.config.realtime !== true &&
        (loaded.get(item.instance.sourceId as string)?.connector.followsRange?.(item.inputs) ?? true),
    );
    const previous = followsRange ? planned.previous : null;
    const results = await allEnded(
      plans.map((plan) =>
        instanceResult(companyId, plan, loaded.get(plan.instance.sourceId as string) as LoadedSource, request, {
          current,
          previous,
        }),
      ),
    );
    return mergeResults(request, results, previous !== null);
  }

  return {
    /** POST /api/widgets/data for the company's session; throws SourceFailure when every instance's source failed. */
    async data(companyId: string, request: TWidgetDataRequest): Promise<WidgetData> {
      const answer = await tablesOf(companyId, request);
      if (!request.goals || request.goals.length === 0) return answer;
      // The goals' daily queries take the same path without goals (goals.ts).
      const goals = await goalsOf(request, answer, now(), (daily) => tablesOf(companyId, daily));
      return { ...answer, goals };
    },
  };
}

/**
 * Promise.all that settles only once every promise has: an answer goes out only after every provider
 * call its request started has ended. With Promise.all a refusal of one range or instance answered at
 * once while the other range's call (or another instance's) ran on unseen, after the answer, spending
 * the provider's allowance. The first failure in the given order is thrown.
 */
async function allEnded<T extends readonly unknown[]>(promises: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/** The `{data}` answer from the instances' outcomes: merged tables, errors, notices, no-data reasons and filters, in instance order. */
function mergeResults(request: TWidgetDataRequest, results: InstanceResult[], compared: boolean): WidgetData {
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
  if (ok.length === 0) throw new SourceFailure(String(results[0]?.plan.instance.sourceId));
  const several = request.instances.length > 1;
  return {
    current: mergeInstanceTables(
      ok.map((result) => ({ prefix: result.prefix, table: result.now })),
      several,
    ),
    previous: compared
      ? mergeInstanceTables(
          ok.map((result) => ({ prefix: result.prefix, table: result.before as TTable })),
          several,
        )
      : null,
    errors,
    notices: results.flatMap((result) =>
      result.now && result.notice ? [{ instanceId: result.plan.instance.id, ...result.notice }] : [],
    ),
    // The instances whose provider had nothing for their inputs, with its reason (SEMrush's "nothing found").
    noData: results.flatMap(({ plan: { instance }, now }) =>
      now?.emptyReason ? [{ instanceId: instance.id, reason: now.emptyReason }] : [],
    ),
    // The filters of the instances whose numbers are shown, named as their columns are (merge-tables).
    filters: results.flatMap(({ plan: { instance, inputs, prefix }, now }) => {
      const text = now ? widgetType(instance.type)?.connector.describeFilter?.(instance.type, inputs) : null;
      return text ? [{ instanceId: instance.id, text: several ? `${text} (${prefix})` : text }] : [];
    }),
  };
}
