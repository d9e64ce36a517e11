import type { TTable, TTableMetric } from "@app/core";
import { daysBetween, shiftDay } from "@app/core";
import { z } from "zod";
import { AppError } from "../../infra/errors";
import { sha256 } from "../../infra/security";
import { type CrmDeal, DEAL_METRICS, type DealKind, type DealMetric } from "../crm-deals";
import { classifyByStatusWithMessage } from "../http/classify";
import { createProviderClient, type QuotaBucket } from "../http/client";
import { ProviderError } from "../http/errors";
import { perRuntime } from "../http/per-runtime";
import { text } from "../kit/inputs";
import { storedToken } from "../kit/token";
import { dimensionParam, metricsParam, toOptions, widgetTypeConfig } from "../options";
import type { Connector, ConnectorRuntime, QueryInputs } from "../types";
import { logo } from "./logo";
import { salesflareSettings } from "./settings";

/**
 * Salesflare (docs/connectors.md): a CRM's deals. Pipelines and their stages from `GET /pipelines`,
 * deals from `GET /opportunities?pipeline=&close_after=&close_before=` (paged by limit/offset), the
 * key's user and team from `GET /me`. The API key is the login, sent as `Authorization: Bearer …`.
 *
 * Deals are placed in the range by their close date (Salesflare's own date filter: expected close for
 * open deals, actual close for won and lost ones). Won and lost are the pipeline's fixed stages. Money
 * is in the deals' currency; rates and averages are computed from the sums, never summed.
 */

/** An id Salesflare may send bare (`stage: 3`) or expanded (`stage: {id: 3, name: …}`). */
const ZRef = z.union([
  z
    .object({ id: z.coerce.string(), name: z.string().nullish() })
    .transform((ref) => ({ id: ref.id, name: ref.name ?? null })),
  z.union([z.string(), z.number()]).transform((id) => ({ id: String(id), name: null as string | null })),
]);
const ZPipelines = z.array(
  z.object({
    id: z.coerce.string(),
    name: z.string(),
    stages: z
      .array(
        z.object({
          id: z.coerce.string(),
          name: z.string(),
          order: z.number().nullish(),
          probability: z.number().nullish(),
          /** 1 the pipeline's Won stage, 2 its Lost stage, absent or 0 an open stage. */
          fixed_stage: z.number().nullish(),
        }),
      )
      .default([]),
  }),
);
type Stage = z.infer<typeof ZPipelines>[number]["stages"][number];
const ZOpportunities = z.array(
  z.object({
    id: z.coerce.string(),
    name: z.string().nullish(),
    value: z.coerce.number().nullish(),
    currency: z
      .union([z.string(), z.object({ iso: z.string() })])
      .nullish()
      .transform((currency) => (typeof currency === "string" ? currency : (currency?.iso ?? null))),
    probability: z.number().nullish(),
    stage: ZRef,
    owner: ZRef.nullish(),
    close_date: z.string().nullish(),
  }),
);
type Opportunity = z.infer<typeof ZOpportunities>[number];
const ZMe = z.object({
  id: z.coerce.string(),
  name: z.string().nullish(),
  email: z.string().nullish(),
  team: z.object({ name: z.string().nullish() }).nullish(),
});

/** A deal can be edited, moved or re-opened later; a month after the range a result is kept as final. */
export const SALESFLARE_SETTLING_DAYS = 30;
/** Deals per page; pages beyond the cap mean a pipeline too large for one widget (the form's error). */
const PAGE_SIZE = 100;
const MAX_PAGES = 50;

type Kind = DealKind;
type Deal = CrmDeal;
const METRICS = DEAL_METRICS;
const DIMENSIONS = [
  { key: "stage", label: "Stage" },
  { key: "owner", label: "Owner" },
  { key: "closeDate", label: "Close date" },
];

const WIDGET_TYPE = widgetTypeConfig({
  type: "salesflare.deals",
  label: "Deals",
  connector: "salesflare",
  params: [
    { key: "pipeline", label: "Pipeline", kind: "select", required: true, remote: "pipelines" },
    dimensionParam(DIMENSIONS),
    metricsParam(METRICS),
  ],
});

/** One client per process, so the per-key limit holds across requests. */
const client = perRuntime((runtime: ConnectorRuntime) =>
  createProviderClient({
    provider: "salesflare",
    baseUrl: runtime.providers.salesflare.apiUrl,
    classify: classifyByStatusWithMessage,
    counters: runtime.counters,
    concurrency: 3,
  }),
);
/** Checking a typed key: one attempt, a short wait (the sources form is waiting). */
const checkClient = perRuntime((runtime: ConnectorRuntime) =>
  createProviderClient({
    provider: "salesflare",
    baseUrl: runtime.providers.salesflare.apiUrl,
    classify: classifyByStatusWithMessage,
    counters: runtime.counters,
    attempts: 1,
    timeoutMs: 5000,
  }),
);

const authorization = (token: string) => ({ authorization: `Bearer ${token}` });
/** The key stands for a Salesflare user; counters name it by a digest, never by the key itself. */
const keyId = (token: string) => `key:${sha256(token).slice(0, 16)}`;
/**
 * Salesflare publishes no number and sends no limit headers, only 429. A modest pace per key (a
 * minute's allowance shared by every process) keeps a dashboard of many widgets from provoking it.
 */
const quotas = (token: string): QuotaBucket[] => [{ key: keyId(token), max: 120, windowMs: 60_000, kind: "rate" }];

function chosenMetrics(inputs: QueryInputs): DealMetric[] {
  const keys = Array.isArray(inputs.metrics) ? inputs.metrics.map(String) : [];
  return keys.flatMap((key) => METRICS.filter((metric) => metric.key === key));
}

/** The most common currency among the deals: the widget's (Salesflare does not convert between them). */
function mainCurrency(opportunities: readonly Opportunity[]): string | null {
  const counts = new Map<string, number>();
  for (const opportunity of opportunities) {
    if (opportunity.currency) counts.set(opportunity.currency, (counts.get(opportunity.currency) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
}

const kindOf = (stage: Stage | undefined): Kind =>
  stage?.fixed_stage === 1 ? "won" : stage?.fixed_stage === 2 ? "lost" : "open";

export const salesflareConnector: Connector = {
  key: "salesflare",
  logo,
  settings: salesflareSettings,
  displayName: "SalesFlare",
  order: 15,
  authKind: "account+token",
  available: true,
  note: null,
  settlingDays: SALESFLARE_SETTLING_DAYS,
  widgetTypes: [WIDGET_TYPE],

  async verify({ credentials, runtime }) {
    const token = credentials.token ?? "";
    const me = await checkClient(runtime).request({
      path: "/me",
      headers: authorization(token),
      schema: ZMe,
      limitKey: keyId(token),
      quotas: quotas(token),
    });
    // The team's name is how Salesflare shows the account; without one the typed name stands.
    return me.team?.name ? { account: me.team.name } : undefined;
  },

  async options(kind, { source }) {
    if (kind === "metrics") return toOptions(METRICS);
    if (kind === "dimensions") return toOptions(DIMENSIONS);
    if (kind !== "pipelines") throw AppError.notFound("Unknown option list.");
    const token = storedToken(source.credentials, "salesflare");
    const pipelines = await client(source.runtime).request({
      path: "/pipelines",
      headers: authorization(token),
      schema: ZPipelines,
      limitKey: keyId(token),
      quotas: quotas(token),
    });
    return pipelines.map((pipeline) => ({ value: pipeline.id, label: pipeline.name }));
  },

  async query({ source, inputs, range }): Promise<TTable> {
    const pipelineId = text(inputs.pipeline);
    if (!pipelineId) throw AppError.validation({ pipeline: ["The pipeline field is required."] });
    const dimensionKey = text(inputs.dimension);
    const dimension = DIMENSIONS.find((entry) => entry.key === dimensionKey) ?? null;
    if (dimensionKey && !dimension) throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
    const metrics = chosenMetrics(inputs);
    if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
    const token = storedToken(source.credentials, "salesflare");
    const api = client(source.runtime);
    const ask = <T>(path: string, schema: z.ZodType<T>, query?: Record<string, string | number>) =>
      api.request({
        path,
        query,
        headers: authorization(token),
        schema,
        limitKey: keyId(token),
        quotas: quotas(token),
      });

    const pipeline = (await ask("/pipelines", ZPipelines)).find((entry) => entry.id === pipelineId);
    if (!pipeline) {
      throw new ProviderError("salesflare", "input", "this pipeline is no longer in Salesflare", { field: "pipeline" });
    }
    const opportunities: Opportunity[] = [];
    for (let page = 0; ; page += 1) {
      if (page >= MAX_PAGES) {
        throw new ProviderError(
          "salesflare",
          "input",
          `more than ${PAGE_SIZE * MAX_PAGES} deals close in this range; choose a shorter range`,
        );
      }
      const batch = await ask("/opportunities", ZOpportunities, {
        pipeline: pipeline.id,
        // Salesflare's bounds are times; the day filter below decides, whatever their inclusiveness.
        close_after: range.startDate,
        close_before: shiftDay(range.endDate, 1),
        order_by: "close_date",
        limit: PAGE_SIZE,
        offset: page * PAGE_SIZE,
      });
      opportunities.push(...batch);
      if (batch.length < PAGE_SIZE) break;
    }
    const inRange = opportunities.filter((opportunity) => {
      const day = (opportunity.close_date ?? "").slice(0, 10);
      return day >= range.startDate && day <= range.endDate;
    });
    const currency = mainCurrency(inRange);
    const stages = new Map(pipeline.stages.map((stage) => [stage.id, stage]));
    const deals = inRange.map((opportunity) => ({
      opportunity,
      deal: {
        kind: kindOf(stages.get(opportunity.stage.id)),
        // Another currency cannot be added in: counted as a deal, left out of the money.
        value: opportunity.currency === currency || opportunity.currency === null ? (opportunity.value ?? 0) : null,
        probability: opportunity.probability ?? stages.get(opportunity.stage.id)?.probability ?? 0,
      } satisfies Deal,
    }));
    const row = (label: string, group: typeof deals) => ({
      dimension: label,
      values: metrics.map((metric) => metric.of(group.map((entry) => entry.deal))),
    });

    let rows: TTable["rows"] = [];
    if (dimension?.key === "stage") {
      // Every stage of the pipeline in its order, empty ones too: a funnel shows its gaps.
      rows = [...pipeline.stages]
        .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
        .map((stage) =>
          row(
            stage.name,
            deals.filter((entry) => entry.opportunity.stage.id === stage.id),
          ),
        );
    } else if (dimension?.key === "owner") {
      const owners = new Map<string, string>();
      for (const { opportunity } of deals) {
        const owner = opportunity.owner;
        owners.set(owner?.id ?? "", owner ? (owner.name ?? `User ${owner.id}`) : "No owner");
      }
      rows = [...owners.entries()]
        .map(([id, name]) =>
          row(
            name,
            deals.filter((entry) => (entry.opportunity.owner?.id ?? "") === id),
          ),
        )
        .sort((a, b) => (a.dimension ?? "").localeCompare(b.dimension ?? ""));
    } else if (dimension?.key === "closeDate") {
      rows = Array.from({ length: daysBetween(range.startDate, range.endDate) + 1 }, (_, index) => {
        const day = shiftDay(range.startDate, index);
        return row(
          day,
          deals.filter((entry) => (entry.opportunity.close_date ?? "").slice(0, 10) === day),
        );
      });
    }
    return {
      dimension: dimension
        ? { key: dimension.key, label: dimension.label, kind: dimension.key === "closeDate" ? "date" : "string" }
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
      totals: metrics.map((metric) => metric.of(deals.map((entry) => entry.deal))),
    };
  },
};
