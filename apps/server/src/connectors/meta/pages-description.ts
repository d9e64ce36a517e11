import fs from "node:fs/promises";
import type { ApiDescription, ApiDescriptionLoader, DescribedRequest } from "../kit/description";
import { GRAPH_COMMON_PARAMS, graphDescription } from "./graph-description";
import type { GraphSdk } from "./graph-sdk";

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

/** The insights edges' parameters (Meta's Page and Instagram insights references). */
const INSIGHTS_PARAMS = [
  ...GRAPH_COMMON_PARAMS,
  "metric",
  "period",
  "since",
  "until",
  "date_preset",
  "metric_type",
  "breakdown",
];

/** Whose insights a connector reads: Pages' own, or the Instagram accounts linked to them (and their posts). */
type Insights = "pages" | "igUsers";
type Route =
  | { kind: "list"; object: string; params: readonly string[] }
  | { kind: "insights"; of: "page" | "account" | "post"; params: readonly string[] };

function routeOf(insights: Insights, request: DescribedRequest, path: string): Route | null {
  if (request.method !== "GET") return null;
  const list = (object: string): Route => ({ kind: "list", object, params: GRAPH_COMMON_PARAMS });
  if (path === "/me/accounts") return list("Page");
  if (path === "/me/businesses") return list("Business");
  if (/^\/\d+\/(owned_pages|client_pages)$/.test(path)) return list("Page");
  if (/^\/\d+\/insights$/.test(path)) {
    if (insights === "pages") return { kind: "insights", of: "page", params: INSIGHTS_PARAMS };
    // An account's insights name a period; a post's are lifetime figures, asked without one.
    const of = request.url.searchParams.has("period") ? "account" : "post";
    return { kind: "insights", of, params: INSIGHTS_PARAMS };
  }
  if (insights === "igUsers" && /^\/\d+\/media$/.test(path)) return list("IGMedia");
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

/** An insights result's `total_value` (the amendment above): `{value: number}`. */
function checkTotalValue(row: Record<string, unknown>, at: string): string[] {
  if (!("total_value" in row)) return [];
  const total = row.total_value as { value?: unknown } | null;
  return total && typeof total === "object" && typeof total.value === "number"
    ? []
    : [`${at}.total_value: not {value: number}`];
}

/** The description of one connector's Graph calls over the pinned SDK objects (./graph-description.ts). */
export function graphPagesDescription(sdk: GraphSdk, insights: Insights): ApiDescription {
  return graphDescription<Route>(sdk, {
    file: "pages-graph-sdk.json",
    routeOf: (request, path) => routeOf(insights, request, path),
    covers: true,
    checkParams: (route, params) =>
      route.kind === "insights"
        ? checkInsightsParams(sdk, route.of, params)
        : params.fields !== undefined
          ? checkFields(sdk, route.object, params.fields)
          : [],
    answer: (route) =>
      route.kind === "insights"
        ? { list: { object: "InsightsResult", extra: ["total_value"], keys: ["data", "paging"], row: checkTotalValue } }
        : { list: { object: route.object, extra: [], keys: ["data", "paging"], row: checkTotalValue } },
  });
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
