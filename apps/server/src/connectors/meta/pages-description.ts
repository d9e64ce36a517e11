import fs from "node:fs/promises";
import type { ApiDescription, ApiDescriptionLoader, DescribedRequest } from "../kit/description";
import { checkSdkFields, type GraphSdk } from "./graph-sdk";

/**
 * The Graph API calls of the Pages and Instagram connectors as Meta's business SDK describes them for the
 * pinned Graph version (./pages-graph-sdk.json: the Page, Business, IGUser, IGMedia, InsightsResult and
 * InsightsValue objects, extracted by ./graph-sdk.ts; docs/connectors.md "The providers' own API
 * descriptions"). The SDK lists no routes; the routes below are the ones the connectors call, each tied
 * to the object it answers with.
 *
 * What the SDK does not say is not checked, and is said here: it enumerates no Page insights metric (its
 * `InsightsResult.Metric` holds Instagram media and Threads metrics only), and of the Instagram account
 * metrics it lacks `accounts_engaged`, `saves` and `profile_links_taps`, so insights metric names are
 * checked only for a post's insights. `total_value` (an Instagram account metric's total over the range)
 * is in Meta's Instagram insights reference but not among the SDK's InsightsResult fields, so it is
 * allowed on insights results as an amendment.
 */

/** Parameters every Graph call takes (authentication and cursor paging). */
const COMMON = ["access_token", "appsecret_proof", "limit", "after", "before", "fields"];
/** The insights edges' parameters (Meta's Page and Instagram insights references). */
const INSIGHTS_PARAMS = [...COMMON, "metric", "period", "since", "until", "date_preset", "metric_type", "breakdown"];

/** Whose insights a connector reads: Pages' own, or the Instagram accounts linked to them (and their posts). */
type Insights = "pages" | "igUsers";
type Route = { kind: "list"; object: string; params: string[] } | { kind: "insights"; of: "page" | "account" | "post" };

function routeOf(insights: Insights, request: DescribedRequest, path: string): Route | null {
  if (request.method !== "GET") return null;
  if (path === "/me/accounts") return { kind: "list", object: "Page", params: COMMON };
  if (path === "/me/businesses") return { kind: "list", object: "Business", params: COMMON };
  if (/^\/\d+\/(owned_pages|client_pages)$/.test(path)) return { kind: "list", object: "Page", params: COMMON };
  if (/^\/\d+\/insights$/.test(path)) {
    if (insights === "pages") return { kind: "insights", of: "page" };
    // An account's insights name a period; a post's are lifetime figures, asked without one.
    return { kind: "insights", of: request.url.searchParams.has("period") ? "account" : "post" };
  }
  if (insights === "igUsers" && /^\/\d+\/media$/.test(path)) {
    return { kind: "list", object: "IGMedia", params: COMMON };
  }
  return null;
}

/** A `fields` list's top-level names with what their braces ask (`a,b{c,d}` → a, b with "c,d"). */
function fieldsOf(list: string): { name: string; nested: string | null }[] {
  const out: { name: string; nested: string | null }[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index <= list.length; index++) {
    const char = list[index];
    if (char === "{") depth++;
    else if (char === "}") depth--;
    else if ((char === "," && depth === 0) || index === list.length) {
      const entry = list.slice(start, index);
      const brace = entry.indexOf("{");
      out.push(
        brace < 0 ? { name: entry, nested: null } : { name: entry.slice(0, brace), nested: entry.slice(brace + 1, -1) },
      );
      start = index + 1;
    }
  }
  return out.filter((entry) => entry.name !== "");
}

function checkFields(sdk: GraphSdk, object: string, list: string): string[] {
  const fields = sdk.objects[object]?.fields ?? {};
  return fieldsOf(list).flatMap(({ name, nested }) => {
    const type = fields[name];
    if (!type) return [`fields: "${name}" is not a field of ${object}`];
    return nested !== null && sdk.objects[type] ? checkFields(sdk, type, nested) : [];
  });
}

function checkInsightsParams(sdk: GraphSdk, of: "page" | "account" | "post", params: Record<string, string>) {
  const { enums } = sdk.objects.InsightsResult;
  const problems: string[] = [];
  const single: Record<string, readonly string[]> = {
    period: enums.Period,
    metric_type: enums.MetricType,
    date_preset: enums.DatePreset,
  };
  for (const [name, allowed] of Object.entries(single)) {
    if (params[name] !== undefined && !allowed.includes(params[name])) {
      problems.push(`${name}: "${params[name]}" is not one of ${allowed.join(", ")}`);
    }
  }
  for (const name of ["since", "until"]) {
    if (params[name] !== undefined && !/^(\d{4}-\d{2}-\d{2}|\d+)$/.test(params[name])) {
      problems.push(`${name}: "${params[name]}" is neither a date nor a Unix time`);
    }
  }
  if (!params.metric) problems.push("metric: missing");
  else if (of === "post") {
    for (const metric of params.metric.split(",")) {
      if (!enums.Metric.includes(metric)) problems.push(`metric: "${metric}" is not one the SDK lists`);
    }
  }
  return problems;
}

function checkGraphError(body: unknown): string[] {
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  if (!error || typeof error.message !== "string" || typeof error.code !== "number") {
    return ["answer: not a Graph error ({error: {message, type, code, fbtrace_id}})"];
  }
  return [];
}

/** An insights result's `total_value` (the amendment above): `{value: number}`. */
function checkTotalValue(row: Record<string, unknown>, at: string): string[] {
  if (!("total_value" in row)) return [];
  const total = row.total_value as { value?: unknown } | null;
  return total && typeof total === "object" && typeof total.value === "number"
    ? []
    : [`${at}.total_value: not {value: number}`];
}

/** The description of one connector's Graph calls over the pinned SDK objects. */
export function graphPagesDescription(sdk: GraphSdk, insights: Insights): ApiDescription {
  const version = /\(Graph API (v\d+\.\d+)\)/.exec(sdk["x-pinned"].release)?.[1];
  const locate = (request: DescribedRequest) => {
    const match = /^\/(v\d+\.\d+)(\/.*)$/.exec(request.url.pathname);
    if (!match) return { problem: `${request.url.pathname}: no Graph version in the path` };
    const route = routeOf(insights, request, match[2] ?? "");
    const label = `${request.method} ${match[2]}`;
    if (!route) return { problem: `${label}: not a call this description covers` };
    if (match[1] !== version) {
      return {
        problem: `${label}: the request names Graph ${match[1]}, the pinned SDK objects are ${version}'s (refresh pages-graph-sdk.json)`,
      };
    }
    return { route, label };
  };
  return {
    source: { url: sdk["x-pinned"].url, retrieved: sdk["x-pinned"].retrieved },
    // Sign-in, token exchange and debugging are Facebook Login's, which the SDK objects do not describe.
    covers(request) {
      const path = /^\/v\d+\.\d+(\/.*)$/.exec(request.url.pathname)?.[1];
      return path !== undefined && routeOf(insights, request, path) !== null;
    },
    checkRequest(request) {
      const found = locate(request);
      if (!found.route) return [found.problem];
      const { route, label } = found;
      const params: Record<string, string> = Object.fromEntries(request.url.searchParams);
      const allowed = route.kind === "insights" ? INSIGHTS_PARAMS : route.params;
      const problems = Object.keys(params)
        .filter((name) => !allowed.includes(name))
        .map((name) => `unknown parameter ${name}`);
      if (route.kind === "insights") problems.push(...checkInsightsParams(sdk, route.of, params));
      else if (params.fields !== undefined) problems.push(...checkFields(sdk, route.object, params.fields));
      return problems.map((problem) => `${label}: ${problem}`);
    },
    checkResponse(request, status, body) {
      const found = locate(request);
      if (!found.route) return [found.problem];
      const { route, label } = found;
      const problems: string[] = [];
      if (status >= 400) problems.push(...checkGraphError(body));
      else if (!body || typeof body !== "object" || Array.isArray(body)) problems.push("answer: not a JSON object");
      else {
        const page = body as Record<string, unknown>;
        const object = route.kind === "insights" ? "InsightsResult" : route.object;
        if (!Array.isArray(page.data)) problems.push("answer.data: not a list");
        else {
          page.data.forEach((item, index) => {
            const row = item as Record<string, unknown>;
            const at = `answer.data[${index}]`;
            const extra = route.kind === "insights" ? ["total_value"] : [];
            problems.push(...checkSdkFields(sdk, object, row, at, extra), ...checkTotalValue(row, at));
          });
        }
        const paging = page.paging as Record<string, unknown> | undefined;
        for (const key of Object.keys(paging ?? {})) {
          if (!["cursors", "next", "previous"].includes(key))
            problems.push(`answer.paging.${key}: not a paging property`);
        }
        for (const key of Object.keys(page)) {
          if (!["data", "paging"].includes(key)) problems.push(`answer.${key}: not a list property`);
        }
      }
      return problems.map((problem) => `${label} → ${status}: ${problem}`);
    },
  };
}

let loaded: Promise<GraphSdk> | undefined;
/** The pinned SDK objects, read when first asked for, as the description of one connector's calls. */
export const graphPagesLoader =
  (insights: Insights): ApiDescriptionLoader =>
  () => {
    loaded ??= fs
      .readFile(new URL("./pages-graph-sdk.json", import.meta.url), "utf8")
      .then((text) => JSON.parse(text) as GraphSdk);
    return loaded.then((sdk) => graphPagesDescription(sdk, insights));
  };
