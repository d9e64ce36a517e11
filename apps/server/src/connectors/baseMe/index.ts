import { daysBetween, shiftDay, type TTable, type TTableMetric, todayInTimezone } from "@app/core";
import { AppError } from "../../infra/errors";
import { type CrmDeal, DEAL_METRICS, type DealKind } from "../crm-deals";
import { ProviderError } from "../http/errors";
import { text } from "../kit/inputs";
import { dimensionParam, metricsParam, toOptions, widgetTypeConfig } from "../options";
import type { Connector, QueryInputs } from "../types";
import {
  allItems,
  type BaseAsk,
  baseApi,
  type Deal,
  type Lead,
  type Stage,
  ZDeal,
  ZLead,
  ZPipeline,
  ZStage,
  ZUser,
} from "./api";
import { logo } from "./logo";
import { baseOAuthAdapter, missingBaseConfig } from "./oauth";
import { baseSettings } from "./settings";

/**
 * "Base.me" (docs/connectors.md, docs/decisions.md): the catalogue's name, spoken as the Base CRM API
 * (Zendesk Sell, https://api.getbase.com/v2). Pipelines from `GET /v2/pipelines`, their stages from
 * `GET /v2/stages?pipeline_id=`, deals from `GET /v2/deals?stage_id=` (one list per stage of the
 * pipeline), leads from `GET /v2/leads?sort_by=created_at:desc`, owners' names from `GET /v2/users`.
 *
 * Where a deal falls in the range: a won or lost deal on the day it entered its closing stage
 * (`last_stage_change_at`: the day it was won or lost), an open deal on the day it was added to the
 * pipeline (`added_at`). So "won value" over October is what was won in October, and "pipeline value"
 * is what entered the pipeline then and is still open. Days are the dashboard's time zone's days.
 * Money is in the deals' most common currency (Base does not convert); rates and averages come from sums.
 */

/** A deal can be edited, moved or re-opened later; a month after the range a result is kept as final. */
export const BASE_SETTLING_DAYS = 30;

type Kind = DealKind;
const DEAL_DIMENSIONS = [
  { key: "stage", label: "Stage" },
  { key: "owner", label: "Owner" },
  { key: "date", label: "Date" },
];
const LEAD_METRICS = [{ key: "newLeads", label: "New leads" }];
const LEAD_DIMENSIONS = [
  { key: "date", label: "Date" },
  { key: "owner", label: "Owner" },
  { key: "status", label: "Status" },
];

const DEALS_TYPE = widgetTypeConfig({
  type: "baseMe.deals",
  label: "Deals",
  connector: "baseMe",
  params: [
    { key: "pipeline", label: "Pipeline", kind: "select", required: true, remote: "pipelines" },
    dimensionParam(DEAL_DIMENSIONS),
    metricsParam(DEAL_METRICS),
  ],
});
const LEADS_TYPE = widgetTypeConfig({
  type: "baseMe.leads",
  label: "Leads",
  connector: "baseMe",
  params: [dimensionParam(LEAD_DIMENSIONS), metricsParam(LEAD_METRICS)],
});

function chosen<T extends { key: string }>(all: readonly T[], inputs: QueryInputs): T[] {
  const keys = Array.isArray(inputs.metrics) ? inputs.metrics.map(String) : [];
  return keys.flatMap((key) => all.filter((metric) => metric.key === key));
}

function chosenDimension(all: readonly { key: string; label: string }[], inputs: QueryInputs) {
  const key = text(inputs.dimension);
  const dimension = all.find((entry) => entry.key === key) ?? null;
  if (key && !dimension) throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
  return dimension;
}

/** The most common currency among the deals: the widget's. */
function mainCurrency(deals: readonly Deal[]): string | null {
  const counts = new Map<string, number>();
  for (const deal of deals) if (deal.currency) counts.set(deal.currency, (counts.get(deal.currency) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
}

const kindOf = (stage: Stage | undefined): Kind =>
  stage?.category === "won" ? "won" : stage?.category === "lost" ? "lost" : "open";

/** The day a deal falls on (see the header): closing stage change for won and lost, added for open. */
function dealDay(deal: Deal, kind: Kind, timezone: string): string | null {
  const at = kind === "open" ? (deal.added_at ?? deal.created_at) : (deal.last_stage_change_at ?? deal.added_at);
  return at ? todayInTimezone(timezone, new Date(at)) : null;
}

async function ownerNames(ask: BaseAsk): Promise<Map<string, string>> {
  const users = await allItems(ask, "/users", ZUser, { sort_by: "id" });
  return new Map(users.map((user) => [user.id, user.name || user.email || `User ${user.id}`]));
}

const everyDay = (start: string, end: string) =>
  Array.from({ length: daysBetween(start, end) + 1 }, (_, index) => shiftDay(start, index));

/** Rows grouped by a key, labelled, in the given order (owner rows sorted by name). */
function groupRows<T>(
  entries: readonly T[],
  keyOf: (entry: T) => string,
  labelOf: (key: string) => string,
): { label: string; entries: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const entry of entries) groups.set(keyOf(entry), [...(groups.get(keyOf(entry)) ?? []), entry]);
  return [...groups.entries()]
    .map(([key, group]) => ({ label: labelOf(key), entries: group }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

export const baseMeConnector: Connector = {
  key: "baseMe",
  logo,
  settings: baseSettings,
  displayName: "Base.me",
  order: 19,
  authKind: "oauth2",
  available: true,
  note: null,
  oauth: baseOAuthAdapter,
  settlingDays: BASE_SETTLING_DAYS,
  widgetTypes: [DEALS_TYPE, LEADS_TYPE],
  missingConfig: (providers) => missingBaseConfig(providers.base),

  async options(kind, { source }) {
    if (kind === "metrics") return toOptions(DEAL_METRICS);
    if (kind === "dimensions") return toOptions(DEAL_DIMENSIONS);
    if (kind !== "pipelines") throw AppError.notFound("Unknown option list.");
    const ask = await baseApi(source);
    const pipelines = await allItems(ask, "/pipelines", ZPipeline, {});
    return pipelines
      .filter((pipeline) => !pipeline.disabled)
      .map((pipeline) => ({ value: pipeline.id, label: pipeline.name }));
  },

  async query({ source, type, inputs, range, timezone }): Promise<TTable> {
    if (type === LEADS_TYPE.type) return leadsTable(await baseApi(source), inputs, range, timezone);
    const pipelineId = text(inputs.pipeline);
    if (!pipelineId) throw AppError.validation({ pipeline: ["The pipeline field is required."] });
    const dimension = chosenDimension(DEAL_DIMENSIONS, inputs);
    const metrics = chosen(DEAL_METRICS, inputs);
    if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
    const ask = await baseApi(source);

    const stages = (await allItems(ask, "/stages", ZStage, { pipeline_id: pipelineId })).sort(
      (a, b) => (a.position ?? 0) - (b.position ?? 0),
    );
    if (stages.length === 0) {
      throw new ProviderError("base", "input", "this pipeline is no longer in Base", { field: "pipeline" });
    }
    const [perStage, owners] = await Promise.all([
      Promise.all(stages.map((stage) => allItems(ask, "/deals", ZDeal, { stage_id: stage.id, sort_by: "id" }))),
      dimension?.key === "owner" ? ownerNames(ask) : Promise.resolve(new Map<string, string>()),
    ]);
    const byId = new Map(stages.map((stage) => [stage.id, stage]));
    const inRange = perStage.flat().flatMap((deal) => {
      const stage = byId.get(deal.stage_id);
      const kind = kindOf(stage);
      const day = dealDay(deal, kind, timezone);
      return day && day >= range.startDate && day <= range.endDate ? [{ deal, stage, kind, day }] : [];
    });
    const currency = mainCurrency(inRange.map((entry) => entry.deal));
    const placed = inRange.map((entry) => ({
      ...entry,
      placed: {
        kind: entry.kind,
        // Another currency cannot be added in: counted as a deal, left out of the money.
        value: entry.deal.currency === currency || !entry.deal.currency ? (entry.deal.value ?? 0) : null,
        probability: entry.stage?.likelihood ?? 0,
      } satisfies CrmDeal,
    }));
    const row = (label: string, group: typeof placed) => ({
      dimension: label,
      values: metrics.map((metric) => metric.of(group.map((entry) => entry.placed))),
    });

    let rows: TTable["rows"] = [];
    if (dimension?.key === "stage") {
      // Every stage in the pipeline's order, empty ones too: a funnel shows its gaps.
      rows = stages.map((stage) =>
        row(
          stage.name,
          placed.filter((entry) => entry.deal.stage_id === stage.id),
        ),
      );
    } else if (dimension?.key === "owner") {
      rows = groupRows(
        placed,
        (entry) => entry.deal.owner_id ?? "",
        (id) => (id ? (owners.get(id) ?? `User ${id}`) : "No owner"),
      ).map((group) => row(group.label, group.entries));
    } else if (dimension?.key === "date") {
      rows = everyDay(range.startDate, range.endDate).map((day) =>
        row(
          day,
          placed.filter((entry) => entry.day === day),
        ),
      );
    }
    return {
      dimension: dimension
        ? { key: dimension.key, label: dimension.label, kind: dimension.key === "date" ? "date" : "string" }
        : null,
      metrics: metrics.map(
        (metric): TTableMetric => ({
          key: metric.key,
          label: metric.label,
          format: metric.format,
          ...(metric.format === "money" ? { currency } : {}),
        }),
      ),
      rows,
      totals: metrics.map((metric) => metric.of(placed.map((entry) => entry.placed))),
    };
  },
};

/** New leads by the day they were created (in the dashboard's zone), by owner or by status. */
async function leadsTable(
  ask: BaseAsk,
  inputs: QueryInputs,
  range: { startDate: string; endDate: string },
  timezone: string,
): Promise<TTable> {
  const dimension = chosenDimension(LEAD_DIMENSIONS, inputs);
  const metrics = chosen(LEAD_METRICS, inputs);
  if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
  const dayOf = (lead: Lead) => todayInTimezone(timezone, new Date(lead.created_at));
  // Newest first, so paging stops once a page reaches days before the range.
  const leads = await allItems(ask, "/leads", ZLead, { sort_by: "created_at:desc" }, (batch) => {
    const last = batch.at(-1);
    return last !== undefined && dayOf(last) < range.startDate;
  });
  const inRange = leads.filter((lead) => {
    const day = dayOf(lead);
    return day >= range.startDate && day <= range.endDate;
  });
  const owners = dimension?.key === "owner" ? await ownerNames(ask) : new Map<string, string>();
  const row = (label: string, group: readonly Lead[]) => ({
    dimension: label,
    values: metrics.map(() => group.length),
  });
  let rows: TTable["rows"] = [];
  if (dimension?.key === "date") {
    rows = everyDay(range.startDate, range.endDate).map((day) =>
      row(
        day,
        inRange.filter((lead) => dayOf(lead) === day),
      ),
    );
  } else if (dimension?.key === "owner") {
    rows = groupRows(
      inRange,
      (lead) => lead.owner_id ?? "",
      (id) => (id ? (owners.get(id) ?? `User ${id}`) : "No owner"),
    ).map((group) => row(group.label, group.entries));
  } else if (dimension?.key === "status") {
    rows = groupRows(
      inRange,
      (lead) => lead.status ?? "",
      (status) => status || "No status",
    ).map((group) => row(group.label, group.entries));
  }
  return {
    dimension: dimension
      ? { key: dimension.key, label: dimension.label, kind: dimension.key === "date" ? "date" : "string" }
      : null,
    metrics: metrics.map((metric): TTableMetric => ({ key: metric.key, label: metric.label, format: "number" })),
    rows,
    totals: metrics.map(() => inRange.length),
  };
}
