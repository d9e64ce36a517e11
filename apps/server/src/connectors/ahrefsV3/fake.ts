import { createHash } from "node:crypto";
import { daysBetween, shiftDay } from "@app/core";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeCall, FakeDomainDay, FakeEntry, FakeFault, FakePart } from "../../../test/fakes/app";
import { answerFault } from "../../../test/fakes/kit";
import { AHREFS_COUNTRIES } from "./countries";

/**
 * Ahrefs API v3 as a part of the fakes app (./app.ts), in the shapes of Ahrefs' OpenAPI document
 * (https://docs.ahrefs.com/openapi.json, harvested in api-evangelist/ahrefs
 * `openapi/_original/ahrefs-openapi-original.json`) and its pages
 * https://docs.ahrefs.com/api/docs/introduction.md (Bearer key, 60 requests a minute, 429) and
 * https://docs.ahrefs.com/api/docs/limits-consumption.md (API units: max(50, rows × per-row cost), the
 * traffic and cost fields 10 units, referring domains 5, the rest 1; Rank Tracker, Management and
 * Subscription info free):
 * - `GET /v3/site-explorer/metrics?target&date&mode&country` → `{metrics: {org_keywords, org_keywords_1_3,
 *   org_traffic, org_cost, paid_keywords, paid_pages, paid_traffic, paid_cost}}` (money in USD cents);
 * - `GET /v3/site-explorer/metrics-history?target&date_from&date_to&history_grouping&select&mode&country`
 *   → `{metrics: [{date, …selected}]}`;
 * - `GET /v3/site-explorer/domain-rating?target&date` → `{domain_rating: {domain_rating, ahrefs_rank}}`;
 * - `GET /v3/site-explorer/refdomains-history?target&date_from&date_to&history_grouping&mode` →
 *   `{refdomains: [{date, refdomains}]}`;
 * - `GET /v3/site-explorer/keywords-history?target&date_from&date_to&history_grouping&select&mode&country`
 *   → `{keywords: [{date, top3, top4_10, top11_plus}]}`;
 * - `GET /v3/site-explorer/domain-rating-history?target&date_from&date_to&history_grouping` →
 *   `{domain_ratings: [{date, domain_rating}]}`;
 * - `GET /v3/site-explorer/backlinks-stats?target&date&mode` → `{metrics: {live, all_time, live_refdomains,
 *   all_time_refdomains}}`;
 * - `GET /v3/management/projects` → `{projects: [{project_id, project_name, url, mode, keyword_count, access, …}]}`;
 * - `GET /v3/rank-tracker/overview?project_id&date&device&select` → `{overviews: [{keyword, position, …}]}`;
 * - `GET /v3/subscription-info/limits-and-usage` → `{limits_and_usage: {subscription, units_limit_workspace, …}}`;
 * - failures: `{error: "<sentence>"}` with 400 (a missing or wrong parameter, an unknown `select` column),
 *   401 (no key, a wrong or expired key), 403 (the API units used up), 429, 500. Ahrefs documents only
 *   the shape; the sentences are the fake's.
 *
 * Numbers are functions of target, mode, country and day (`fakeSiteMetrics`, `fakeDomainRating`,
 * `fakeBacklinks`) and of project, keyword, device and day (`fakeRank`), so tests compute what a user
 * must see. `unitsSpent` counts the API units each answer would cost.
 */

export interface FakeAhrefsProject {
  project_id: string;
  project_name: string;
  url: string;
  mode: string;
  access: "private" | "shared";
  keywords: { keyword: string; location: string; country: string; tags: string[] }[];
}

export interface FakeAhrefs {
  /** API keys Ahrefs knows. */
  keys: Set<string>;
  /** Keys whose workspace has no API units left (403). */
  exhausted: Set<string>;
  projects: FakeAhrefsProject[];
  /** Scripted faults: without `pathIncludes` a fault takes the next data call (site explorer or rank tracker). */
  failNext: FakeFault[];
  /** API units the answers so far would have cost. */
  unitsSpent: number;
  calls: FakeCall[];
}

export const AHREFS_KEY = "ahrefs-api-key-0123456789abcdef";

export const AHREFS_PROJECTS: readonly FakeAhrefsProject[] = [
  {
    project_id: "5501",
    project_name: "Acme shop",
    url: "https://acme.com/",
    mode: "subdomains",
    access: "private",
    keywords: [
      { keyword: "running shoes", location: "United States", country: "us", tags: ["shoes"] },
      { keyword: "trail shoes", location: "United States", country: "us", tags: ["shoes", "trail"] },
      { keyword: "acme", location: "United States", country: "us", tags: [] },
      { keyword: "laufschuhe", location: "Germany", country: "de", tags: ["shoes"] },
    ],
  },
  {
    project_id: "5502",
    project_name: "Blog",
    url: "https://blog.acme.com/",
    mode: "exact",
    access: "shared",
    keywords: [{ keyword: "how to tie shoes", location: "United Kingdom", country: "gb", tags: [] }],
  },
  // A project without Rank Tracker keywords (a Site Audit one): `has_keywords=true` leaves it out.
  {
    project_id: "5503",
    project_name: "Audit only",
    url: "https://old.acme.com/",
    mode: "domain",
    access: "private",
    keywords: [],
  },
];

const MODES = ["exact", "prefix", "domain", "subdomains"];
const GROUPINGS = ["daily", "weekly", "monthly"];
const HISTORY_COLUMNS = ["date", "org_cost", "org_traffic", "paid_cost", "paid_traffic"];
const KEYWORDS_HISTORY_COLUMNS = ["date", "top3", "top4_10", "top11_plus"];
const OVERVIEW_COLUMNS = [
  "keyword",
  "location",
  "country",
  "url",
  "tags",
  "position",
  "position_prev",
  "position_diff",
  "traffic",
  "traffic_prev",
  "traffic_diff",
  "volume",
  "keyword_difficulty",
  "cost_per_click",
  "clicks",
  "serp_updated",
];
/** API units per row of a field (limits-consumption: "(10 units)" and "(5 units)" in the field descriptions). */
const FIELD_UNITS: Record<string, number> = {
  org_traffic: 10,
  org_cost: 10,
  paid_traffic: 10,
  paid_cost: 10,
  live_refdomains: 5,
  all_time_refdomains: 5,
};

/** A stable number in [0, 1) for a text. */
function unit(seed: string): number {
  return createHash("sha256").update(seed).digest().readUInt32BE(0) / 2 ** 32;
}

/** The Site Explorer overview of a target on a day (country "" is every country). */
export function fakeSiteMetrics(target: string, mode: string, country: string, date: string) {
  const base = unit(`${target}|${mode}|${country}`);
  const day = unit(`${target}|${mode}|${country}|${date}`);
  const share = country === "" ? 1 : 0.2 + unit(country) * 0.3;
  const orgTraffic = Math.round((20_000 + base * 80_000) * share * (0.9 + day * 0.2));
  return {
    org_keywords: Math.round((3000 + base * 9000) * share),
    org_keywords_1_3: Math.round((200 + base * 900) * share),
    org_traffic: orgTraffic,
    org_cost: Math.round(orgTraffic * 37 * (0.8 + day * 0.4)),
    paid_keywords: Math.round(40 + base * 60),
    paid_pages: Math.round(5 + base * 10),
    paid_traffic: Math.round((500 + base * 1500) * share * (0.9 + day * 0.2)),
    paid_cost: Math.round((90_000 + base * 200_000) * share),
  };
}

/** Organic keywords of a target on a day by position band (keywords-history): they add up to org_keywords. */
export function fakeKeywordBands(target: string, mode: string, country: string, date: string) {
  const metrics = fakeSiteMetrics(target, mode, country, date);
  const top3 = metrics.org_keywords_1_3;
  const top4_10 = Math.round(metrics.org_keywords * 0.15);
  return { top3, top4_10, top11_plus: metrics.org_keywords - top3 - top4_10 };
}

/** Domain Rating (one decimal) and Ahrefs Rank of a target's domain on a day. */
export function fakeDomainRating(target: string, date: string) {
  const base = unit(target);
  return {
    domain_rating: Math.round((40 + base * 40 + unit(`${target}|${date}`) * 2) * 10) / 10,
    ahrefs_rank: Math.round(10_000 + base * 900_000),
  };
}

export function fakeBacklinks(target: string, mode: string, date: string) {
  const base = unit(`${target}|${mode}`);
  const day = unit(`${target}|${mode}|${date}`);
  const live = Math.round((50_000 + base * 200_000) * (0.95 + day * 0.1));
  const refdomains = Math.round((1500 + base * 4000) * (0.95 + day * 0.1));
  return { live, all_time: live * 3, live_refdomains: refdomains, all_time_refdomains: refdomains * 2 };
}

/** One tracked keyword's line on a day: position (null when not in the top 100), URL, traffic, volume. */
export function fakeRank(projectId: string, keyword: string, device: string, date: string) {
  const seed = unit(`${projectId}|${keyword}|${device}|${date}`);
  const volume = Math.round(200 + unit(keyword) * 20_000);
  if (seed > 0.9) return { position: null, url: null, traffic: 0, volume };
  const position = 1 + Math.floor(seed * 25);
  const project = AHREFS_PROJECTS.find((entry) => entry.project_id === projectId);
  const url = `${project?.url ?? "https://example.com/"}${keyword.replace(/\s+/g, "-")}`;
  return { position, url, traffic: Math.round(volume / (position * 3)), volume };
}

/** The dates a history answers for a grouping (weekly from the first day on, monthly on the 1st). */
export function fakeHistoryDates(from: string, to: string, grouping: string): string[] {
  const days = Array.from({ length: daysBetween(from, to) + 1 }, (_, index) => shiftDay(from, index));
  if (grouping === "daily") return days;
  if (grouping === "weekly") return days.filter((_, index) => index % 7 === 0);
  return days.filter((day) => day.endsWith("-01"));
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function ahrefsFake(): FakePart<FakeAhrefs> {
  const state: FakeAhrefs = {
    keys: new Set([AHREFS_KEY]),
    exhausted: new Set(),
    projects: AHREFS_PROJECTS.map((project) => ({ ...project, keywords: [...project.keywords] })),
    failNext: [],
    unitsSpent: 0,
    calls: [],
  };
  const error = (reply: FastifyReply, status: number, message: string) =>
    reply.code(status).header("content-type", "application/json").send({ error: message });

  /** The parameters an endpoint takes (Ahrefs answers 400 for another), the required ones first. */
  const PARAMETERS: Record<string, { required: string[]; optional: string[] }> = {
    "/v3/site-explorer/metrics": {
      required: ["target", "date"],
      optional: ["mode", "country", "protocol", "volume_mode", "traffic_mode", "output"],
    },
    "/v3/site-explorer/metrics-history": {
      required: ["target", "date_from"],
      optional: [
        "date_to",
        "history_grouping",
        "select",
        "mode",
        "country",
        "protocol",
        "volume_mode",
        "traffic_mode",
        "output",
      ],
    },
    "/v3/site-explorer/domain-rating": { required: ["target", "date"], optional: ["protocol", "output"] },
    "/v3/site-explorer/domain-rating-history": {
      required: ["target", "date_from"],
      optional: ["date_to", "history_grouping", "output"],
    },
    "/v3/site-explorer/refdomains-history": {
      required: ["target", "date_from"],
      optional: ["date_to", "history_grouping", "mode", "protocol", "output"],
    },
    "/v3/site-explorer/keywords-history": {
      required: ["target", "date_from"],
      optional: ["date_to", "history_grouping", "select", "mode", "country", "protocol", "output"],
    },
    "/v3/site-explorer/backlinks-stats": { required: ["target", "date"], optional: ["mode", "protocol", "output"] },
    "/v3/rank-tracker/overview": {
      required: ["project_id", "date", "device", "select"],
      optional: ["date_compared", "limit", "order_by", "where", "timeout", "volume_mode", "output"],
    },
    "/v3/management/projects": {
      required: [],
      optional: ["access", "owned_by", "project_id", "has_keywords", "output"],
    },
    "/v3/subscription-info/limits-and-usage": { required: [], optional: ["output"] },
  };

  /** What Ahrefs checks of every call: the key, then the parameters' presence, names and forms. */
  function refused(request: FastifyRequest, reply: FastifyReply, path: string, query: Record<string, string>) {
    const header = String(request.headers.authorization ?? "");
    if (!header) return error(reply, 401, "Authorization header is missing");
    const key = header.startsWith("Bearer ") ? header.slice(7) : "";
    if (!state.keys.has(key)) return error(reply, 401, "API key is invalid or expired");
    const spec = PARAMETERS[path];
    if (!spec) return error(reply, 404, `Unknown endpoint ${path}`);
    for (const name of spec.required) if (!query[name]) return error(reply, 400, `Missing required parameter: ${name}`);
    for (const name of Object.keys(query)) {
      if (!spec.required.includes(name) && !spec.optional.includes(name)) {
        return error(reply, 400, `Unknown parameter: ${name}`);
      }
    }
    for (const name of ["date", "date_from", "date_to", "date_compared"]) {
      if (query[name] !== undefined && !DAY.test(query[name])) {
        return error(reply, 400, `Invalid date for ${name}: expected YYYY-MM-DD`);
      }
    }
    if (query.mode !== undefined && !MODES.includes(query.mode))
      return error(reply, 400, `Invalid value for mode: ${query.mode}`);
    if (query.country !== undefined && !AHREFS_COUNTRIES.includes(query.country)) {
      return error(reply, 400, `Invalid value for country: ${query.country}`);
    }
    if (query.history_grouping !== undefined && !GROUPINGS.includes(query.history_grouping)) {
      return error(reply, 400, `Invalid value for history_grouping: ${query.history_grouping}`);
    }
    if (query.output !== undefined && query.output !== "json") return error(reply, 400, "The fake answers JSON only");
    if (query.target !== undefined && (/\s/.test(query.target) || !query.target.includes("."))) {
      return error(reply, 400, `Invalid target: ${query.target}`);
    }
    if (path.startsWith("/v3/site-explorer/") && state.exhausted.has(key)) {
      return error(reply, 403, "API units limit reached for this billing period");
    }
    return null;
  }

  const spend = (rows: number, fields: string[]) => {
    const perRow = fields.reduce((sum, field) => sum + (FIELD_UNITS[field] ?? 1), 0);
    state.unitsSpent += Math.max(50, rows * perRow);
  };

  function siteExplorer(path: string, query: Record<string, string>, reply: FastifyReply) {
    const target = query.target ?? "";
    const mode = query.mode ?? "subdomains";
    const country = query.country ?? "";
    const grouping = query.history_grouping ?? "monthly";
    const to = query.date_to ?? query.date_from ?? "";
    switch (path) {
      case "/v3/site-explorer/metrics": {
        const metrics = fakeSiteMetrics(target, mode, country, query.date ?? "");
        spend(1, Object.keys(metrics));
        return { metrics };
      }
      case "/v3/site-explorer/domain-rating": {
        spend(1, ["domain_rating", "ahrefs_rank"]);
        return { domain_rating: fakeDomainRating(target, query.date ?? "") };
      }
      case "/v3/site-explorer/backlinks-stats": {
        const metrics = fakeBacklinks(target, mode, query.date ?? "");
        spend(1, Object.keys(metrics));
        return { metrics };
      }
      case "/v3/site-explorer/metrics-history": {
        const select = (query.select ?? "date,org_cost,org_traffic,paid_cost,paid_traffic").split(",");
        const unknown = select.find((column) => !HISTORY_COLUMNS.includes(column));
        if (unknown) return error(reply, 400, `Unknown column in select: ${unknown}`);
        const dates = fakeHistoryDates(query.date_from ?? "", to, grouping);
        spend(dates.length, select);
        return {
          metrics: dates.map((date) => {
            const all: Record<string, string | number> = { date, ...fakeSiteMetrics(target, mode, country, date) };
            return Object.fromEntries(select.map((column) => [column, all[column] ?? null]));
          }),
        };
      }
      case "/v3/site-explorer/refdomains-history": {
        const dates = fakeHistoryDates(query.date_from ?? "", to, grouping);
        spend(dates.length, ["date", "live_refdomains"]);
        return {
          refdomains: dates.map((date) => ({ date, refdomains: fakeBacklinks(target, mode, date).live_refdomains })),
        };
      }
      case "/v3/site-explorer/keywords-history": {
        const select = (query.select ?? "date,top3,top4_10,top11_plus").split(",");
        const unknown = select.find((column) => !KEYWORDS_HISTORY_COLUMNS.includes(column));
        if (unknown) return error(reply, 400, `Unknown column in select: ${unknown}`);
        const dates = fakeHistoryDates(query.date_from ?? "", to, grouping);
        spend(dates.length, select);
        return {
          keywords: dates.map((date) => {
            const all: Record<string, string | number> = { date, ...fakeKeywordBands(target, mode, country, date) };
            return Object.fromEntries(select.map((column) => [column, all[column] ?? null]));
          }),
        };
      }
      default: {
        const dates = fakeHistoryDates(query.date_from ?? "", to, grouping);
        spend(dates.length, ["date", "domain_rating"]);
        return {
          domain_ratings: dates.map((date) => ({ date, domain_rating: fakeDomainRating(target, date).domain_rating })),
        };
      }
    }
  }

  function overview(query: Record<string, string>, reply: FastifyReply) {
    if (!["desktop", "mobile"].includes(query.device ?? "")) {
      return error(reply, 400, `Invalid value for device: ${query.device}`);
    }
    if (!/^\d+$/.test(query.project_id ?? "")) return error(reply, 400, "project_id must be an integer");
    const project = state.projects.find((entry) => entry.project_id === query.project_id);
    if (!project) return error(reply, 400, `Project ${query.project_id} not found`);
    const select = (query.select ?? "").split(",");
    const unknown = select.find((column) => !OVERVIEW_COLUMNS.includes(column));
    if (unknown) return error(reply, 400, `Unknown column in select: ${unknown}`);
    const limit = query.limit === undefined ? 1000 : Number(query.limit);
    return {
      overviews: project.keywords.slice(0, limit).map((keyword) => {
        const rank = fakeRank(project.project_id, keyword.keyword, query.device ?? "", query.date ?? "");
        const all: Record<string, unknown> = { ...keyword, ...rank };
        return Object.fromEntries(select.map((column) => [column, all[column] ?? null]));
      }),
    };
  }

  return {
    state,
    env: (origin) => ({ AHREFS_API_URL: origin }),
    register(app, shared) {
      state.calls = shared.calls;
      app.get("/v3/*", async (request, reply) => {
        const url = new URL(request.url, "http://fake");
        const path = decodeURIComponent(url.pathname);
        const query = Object.fromEntries(url.searchParams);
        const denied = refused(request, reply, path, query);
        if (denied) return denied;
        if (path.startsWith("/v3/site-explorer/") || path.startsWith("/v3/rank-tracker/")) {
          const fault = answerFault(state.failNext, reply, path);
          if (fault) return fault;
        }
        if (path === "/v3/subscription-info/limits-and-usage") {
          return {
            limits_and_usage: {
              subscription: "Advanced",
              usage_reset_date: "2026-12-01",
              units_limit_workspace: 1_000_000,
              units_usage_workspace: state.unitsSpent,
              units_limit_api_key: null,
              units_usage_api_key: state.unitsSpent,
              api_key_expiration_date: "2027-06-01T00:00:00Z",
            },
          };
        }
        if (path === "/v3/management/projects") {
          const wanted = query.has_keywords === "true";
          return {
            projects: state.projects
              .filter((project) => !wanted || project.keywords.length > 0)
              .map(({ keywords, ...project }) => ({
                ...project,
                keyword_count: keywords.length,
                protocol: "both",
                owned_by: "owner@acme.com",
                access: "private",
              })),
          };
        }
        if (path === "/v3/rank-tracker/overview") return overview(query, reply);
        return siteExplorer(path, query, reply);
      });
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "ahrefs",
  build: () => ahrefsFake(),
};

/** The login the sources form would send for this fake (the live check's test connects with it). */
export const fakeLogin = (_origin: string) => ({ account: "Acme SEO", token: AHREFS_KEY });

/** Mission Control's day of a domain at this fake: Ahrefs covers any domain (its Domain Rating here). */
export const fakeDomainDay: FakeDomainDay = (domain, day) => ({
  domainRating: fakeDomainRating(domain, day).domain_rating,
});
