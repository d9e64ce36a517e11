import type { TTable } from "@app/core";
import { z } from "zod";
import { AppError } from "../../infra/errors";
import { sha256 } from "../../infra/security";
import { classifyByStatusWithMessage } from "../http/classify";
import { createProviderClient, type QuotaBucket } from "../http/client";
import { perRuntime } from "../http/per-runtime";
import { siteHost } from "../kit/domain-metrics";
import { text } from "../kit/inputs";
import { storedToken } from "../kit/token";
import { dimensionParam, metricsParam, toOptions, widgetTypeConfig } from "../options";
import { chosenRankMetrics, RANK_METRICS, rankTable, rankTrackerDomainMetrics } from "../rank-tracking";
import type { Connector, ConnectorRuntime, SourceHandle } from "../types";
import { logo } from "./logo";
import { serankingSettings } from "./settings";

/**
 * SE Ranking (docs/connectors.md): rank tracking projects of the Project API. Projects from `GET /sites`,
 * a project's search engines from `GET /sites/{id}/search-engines` (named through
 * `GET /system/search-engines`), numbers from `GET /sites/{id}/positions` (every tracked keyword with
 * its checked positions by day). Required inputs (docs/product.md §5): property (the project),
 * searchEngine, dimension, metrics. The API key is the login, sent as `Authorization: Token …`.
 *
 * Average position is lower-is-better and never summed: a total is the mean of every check in the range.
 * Keyword counts (top 3/10/30/100) are a state, not a flow: a total is the count on the range's last
 * checked day, never a sum over days.
 */

const ZSites = z.array(z.object({ id: z.coerce.string(), title: z.string().nullish(), name: z.string().nullish() }));
const ZSiteEngines = z.array(
  z.object({
    site_engine_id: z.coerce.string(),
    search_engine_id: z.coerce.string(),
    lang_code: z.string().nullish(),
    business_name: z.string().nullish(),
  }),
);
const ZSystemEngines = z.array(z.object({ id: z.coerce.string(), name: z.string() }));
const ZPositions = z.array(
  z.object({
    site_engine_id: z.coerce.string(),
    keywords: z
      .array(
        z.object({
          id: z.coerce.string(),
          name: z.string(),
          positions: z
            .array(z.object({ date: z.string(), pos: z.coerce.number().nullish() }))
            .nullish()
            .transform((value) => value ?? []),
        }),
      )
      .default([]),
  }),
);

/** Positions of past days do not change once checked; the current day may still be checked later. */
export const SERANKING_SETTLING_DAYS = 1;

const DIMENSIONS = [
  { key: "date", label: "Date" },
  { key: "keyword", label: "Keyword" },
];

const WIDGET_TYPE = widgetTypeConfig({
  type: "seranking.rankings",
  label: "Rankings",
  connector: "seranking",
  params: [
    { key: "property", label: "Project", kind: "select", required: true, remote: "properties" },
    { key: "searchEngine", label: "Search engine", kind: "select", required: true, remote: "searchEngines" },
    dimensionParam(DIMENSIONS, { required: true }),
    metricsParam(RANK_METRICS),
  ],
});

/** One client per process, so the per-key limit holds across requests. */
const client = perRuntime((runtime: ConnectorRuntime) =>
  createProviderClient({
    provider: "seranking",
    baseUrl: runtime.providers.seranking.apiUrl,
    classify: classifyByStatusWithMessage,
    counters: runtime.counters,
    concurrency: 5,
  }),
);
/** Checking a typed key: one attempt, a short wait (the sources form is waiting). */
const checkClient = perRuntime((runtime: ConnectorRuntime) =>
  createProviderClient({
    provider: "seranking",
    baseUrl: runtime.providers.seranking.apiUrl,
    classify: classifyByStatusWithMessage,
    counters: runtime.counters,
    attempts: 1,
    timeoutMs: 5000,
  }),
);

const authorization = (token: string) => ({ authorization: `Token ${token}` });
/** The key stands for the SE Ranking account; counters name it by a digest, never by the key itself. */
const keyId = (token: string) => `key:${sha256(token).slice(0, 16)}`;
/**
 * Project API: 5 requests a second per API key, no limit headers (SE Ranking's rate limit page). A
 * dashboard's burst is held to 5 in flight per key (the client's concurrency) and a 429 is retried
 * after a backoff; this bucket keeps the sustained pace across processes at 5 a second, averaged over
 * a minute, so a second-long window does not fail a burst that SE Ranking would have served.
 */
const quotas = (token: string): QuotaBucket[] => [{ key: keyId(token), max: 300, windowMs: 60_000, kind: "rate" }];

/**
 * The account's projects with the address each tracks (`name`: a URL or a bare host), for Mission
 * Control to find a domain's project; its search engines come from the `searchEngines` option list.
 */
export async function serankingProjects(source: SourceHandle): Promise<{ id: string; address: string }[]> {
  const token = storedToken(source.credentials, "seranking");
  const sites = await client(source.runtime).request({
    path: "/sites",
    headers: authorization(token),
    schema: ZSites,
    limitKey: keyId(token),
    quotas: quotas(token),
  });
  return sites.map((site) => ({ id: site.id, address: site.name ?? "" }));
}

/**
 * Mission Control's rank metrics from SE Ranking (docs/decisions.md, "Mission Control metric sources"):
 * the project named for the domain, on its first search engine (SE Ranking lists the main one first).
 * Asked before AccuRanker's.
 */
const domainMetrics = rankTrackerDomainMetrics(4, WIDGET_TYPE.type, async (source, domain) => {
  const projects = await source.call(serankingProjects);
  const project = projects.find((entry) => siteHost(entry.address) === domain);
  if (!project) return null;
  const engines = await source.options("searchEngines", { property: project.id });
  const engine = engines[0]?.value;
  if (!engine) return null;
  return {
    plan: `seranking:${source.id}:${project.id}:${engine}`,
    inputs: { property: project.id, searchEngine: engine },
  };
});

export const serankingConnector: Connector = {
  key: "seranking",
  logo,
  settings: serankingSettings,
  displayName: "SERanking",
  order: 14,
  authKind: "account+token",
  available: true,
  note: null,
  settlingDays: SERANKING_SETTLING_DAYS,
  widgetTypes: [WIDGET_TYPE],
  domainMetrics,

  async verify({ credentials, runtime }) {
    const token = credentials.token ?? "";
    // The cheapest authenticated call: the projects list (SE Ranking tells no account name).
    await checkClient(runtime).request({
      path: "/sites",
      headers: authorization(token),
      schema: ZSites,
      limitKey: keyId(token),
      quotas: quotas(token),
    });
    return undefined;
  },

  async options(kind, { source, form }) {
    if (kind === "metrics") return toOptions(RANK_METRICS);
    if (kind === "dimensions") return toOptions(DIMENSIONS);
    const token = storedToken(source.credentials, "seranking");
    const api = client(source.runtime);
    const ask = <T>(path: string, schema: z.ZodType<T>) =>
      api.request({ path, headers: authorization(token), schema, limitKey: keyId(token), quotas: quotas(token) });
    if (kind === "properties") {
      const sites = await ask("/sites", ZSites);
      return sites
        .map((site) => ({ value: site.id, label: site.title || site.name || site.id }))
        .sort((a, b) => a.label.localeCompare(b.label));
    }
    if (kind !== "searchEngines") throw AppError.notFound("Unknown option list.");
    const site = text(form.property);
    if (!site) throw AppError.validation({ property: ["The property field is required."] });
    const [engines, names] = await Promise.all([
      ask(`/sites/${encodeURIComponent(site)}/search-engines`, ZSiteEngines),
      ask("/system/search-engines", ZSystemEngines),
    ]);
    return engines.map((engine) => {
      const name = names.find((entry) => entry.id === engine.search_engine_id)?.name ?? engine.search_engine_id;
      const details = [engine.lang_code, engine.business_name].filter(Boolean).join(", ");
      return { value: engine.site_engine_id, label: details ? `${name} (${details})` : name };
    });
  },

  async query({ source, inputs, range }): Promise<TTable> {
    const site = text(inputs.property);
    if (!site) throw AppError.validation({ property: ["The property field is required."] });
    const engine = text(inputs.searchEngine);
    if (!engine) throw AppError.validation({ searchEngine: ["The search engine field is required."] });
    const dimension = DIMENSIONS.find((entry) => entry.key === inputs.dimension);
    if (!inputs.dimension) throw AppError.validation({ dimension: ["The dimension field is required."] });
    if (!dimension) throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
    const metrics = chosenRankMetrics(inputs);
    if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
    const token = storedToken(source.credentials, "seranking");
    const answer = await client(source.runtime).request({
      path: `/sites/${encodeURIComponent(site)}/positions`,
      query: { date_from: range.startDate, date_to: range.endDate, site_engine_id: engine },
      headers: authorization(token),
      schema: ZPositions,
      limitKey: keyId(token),
      quotas: quotas(token),
    });
    const keywords = answer.find((entry) => entry.site_engine_id === engine)?.keywords ?? [];
    return rankTable(
      keywords.map((keyword) => ({
        label: keyword.name,
        checks: keyword.positions.map((check) => ({ date: check.date, pos: check.pos ?? null })),
      })),
      metrics,
      dimension,
      range,
    );
  },
};
