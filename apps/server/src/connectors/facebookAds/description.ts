import fs from "node:fs/promises";
import type { ApiDescription, ApiDescriptionLoader } from "../kit/description";
import { GRAPH_COMMON_PARAMS, graphDescription } from "../meta/graph-description";
import { checkSdkFields, type GraphSdk, notAmong } from "../meta/graph-sdk";

/**
 * The Marketing API as Meta's business SDK describes it for the pinned Graph version (./graph-sdk.json,
 * extracted by ../meta/graph-sdk.ts; docs/connectors.md "Facebook Ads"): the objects' fields and the
 * insights enums (levels, breakdowns, action breakdowns, attribution windows, date presets). The SDK
 * lists no routes; the routes below are the ones the connector calls, each tied to the object it reads.
 */

/** The insights edge's parameters besides its enums (Meta's insights reference lists them). */
const INSIGHTS_PARAMS = [
  ...GRAPH_COMMON_PARAMS,
  "level",
  "breakdowns",
  "action_breakdowns",
  "action_attribution_windows",
  "action_report_time",
  "date_preset",
  "time_range",
  "time_ranges",
  "time_increment",
  "filtering",
  "sort",
  "default_summary",
  "use_account_attribution_setting",
  "use_unified_attribution_setting",
];

type Route =
  | { kind: "insights"; start: boolean; params: readonly string[] }
  | { kind: "object"; object: string; list: boolean; params: readonly string[] };

function routeOf(method: string, path: string): Route | null {
  if (/^\/(act_\d+|\d+)\/insights$/.test(path)) {
    if (method === "POST" && path.startsWith("/act_"))
      return { kind: "insights", start: true, params: INSIGHTS_PARAMS };
    return method === "GET" ? { kind: "insights", start: false, params: INSIGHTS_PARAMS } : null;
  }
  if (method !== "GET") return null;
  const object = (name: string, list: boolean, params: readonly string[] = GRAPH_COMMON_PARAMS): Route => ({
    kind: "object",
    object: name,
    list,
    params,
  });
  if (path === "/me/adaccounts") return object("AdAccount", true);
  if (/^\/act_\d+$/.test(path)) return object("AdAccount", false);
  if (/^\/act_\d+\/campaigns$/.test(path))
    return object("Campaign", true, [...GRAPH_COMMON_PARAMS, "effective_status"]);
  if (/^\/\d+$/.test(path)) return object("AdReportRun", false);
  return null;
}

const json = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

function checkInsightsParams(sdk: GraphSdk, params: Record<string, string>): string[] {
  const { fields, enums } = sdk.objects.AdsInsights;
  const problems: string[] = [];
  const lists: Record<string, readonly string[]> = {
    fields: Object.keys(fields),
    breakdowns: enums.Breakdowns,
    action_breakdowns: enums.ActionBreakdowns,
    action_attribution_windows: enums.ActionAttributionWindows,
  };
  for (const [name, allowed] of Object.entries(lists)) {
    if (params[name] === undefined) continue;
    for (const entry of notAmong(params[name], allowed)) problems.push(`${name}: "${entry}" is not one the SDK lists`);
  }
  const single: Record<string, readonly string[]> = {
    level: enums.Level,
    date_preset: enums.DatePreset,
    action_report_time: enums.ActionReportTime,
  };
  for (const [name, allowed] of Object.entries(single)) {
    if (params[name] !== undefined && !allowed.includes(params[name])) {
      problems.push(`${name}: "${params[name]}" is not one of ${allowed.join(", ")}`);
    }
  }
  const increment = params.time_increment;
  if (increment !== undefined && !/^(all_days|monthly|[1-9]\d?)$/.test(increment)) {
    problems.push(`time_increment: "${increment}" is not all_days, monthly or 1 to 90 days`);
  }
  if (params.time_range !== undefined) {
    const range = json(params.time_range) as { since?: unknown; until?: unknown } | undefined;
    const day = (value: unknown) => typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value);
    if (!range || !day(range.since) || !day(range.until) || Object.keys(range).length !== 2) {
      problems.push(`time_range: ${params.time_range} is not {"since":"YYYY-MM-DD","until":"YYYY-MM-DD"}`);
    }
  }
  if (params.filtering !== undefined) {
    const filters = json(params.filtering);
    const fits = (filter: unknown) =>
      !!filter &&
      typeof filter === "object" &&
      typeof (filter as { field?: unknown }).field === "string" &&
      typeof (filter as { operator?: unknown }).operator === "string" &&
      "value" in filter;
    if (!Array.isArray(filters) || !filters.every(fits)) {
      problems.push(`filtering: ${params.filtering} is not a list of {field, operator, value}`);
    }
  }
  return problems;
}

/** A request's own parameters besides the unknown ones: the insights enums, an object's fields and statuses. */
function checkParams(sdk: GraphSdk, route: Route, params: Record<string, string>): string[] {
  if (route.kind === "insights") return checkInsightsParams(sdk, params);
  const problems: string[] = [];
  if (params.fields !== undefined) {
    const fields = Object.keys(sdk.objects[route.object].fields);
    for (const field of notAmong(params.fields, fields)) {
      problems.push(`fields: "${field}" is not a field of ${route.object}`);
    }
  }
  if (params.effective_status !== undefined) {
    const statuses = json(params.effective_status);
    const known = sdk.objects.Campaign.enums.EffectiveStatus;
    if (!Array.isArray(statuses) || statuses.some((status) => !known.includes(status))) {
      problems.push(`effective_status: ${params.effective_status} is not a list of ${known.join(", ")}`);
    }
  }
  return problems;
}

/** The description of the Marketing API calls over the pinned SDK objects (../meta/graph-description.ts). */
export function graphAdsDescription(sdk: GraphSdk): ApiDescription {
  // Breakdown columns come back beside the fields they break down.
  const breakdowns = [...sdk.objects.AdsInsights.enums.Breakdowns, ...sdk.objects.AdsInsights.enums.ActionBreakdowns];
  const keys = ["data", "paging", "summary"];
  return graphDescription<Route>(sdk, {
    file: "graph-sdk.json",
    routeOf: (request, path) => routeOf(request.method, path),
    checkParams: (route, params) => checkParams(sdk, route, params),
    answer(route, body) {
      if (route.kind === "insights" && route.start) {
        return typeof body.report_run_id !== "string" || Object.keys(body).length !== 1
          ? ["answer: not {report_run_id}"]
          : [];
      }
      if (route.kind === "insights") return { list: { object: "AdsInsights", extra: breakdowns, keys } };
      if (route.list) return { list: { object: route.object, extra: [], keys } };
      return checkSdkFields(sdk, route.object, body, "answer");
    },
  });
}

let loaded: Promise<ApiDescription> | undefined;
/** The pinned SDK objects, read when first asked for. */
export const facebookAdsDescription: ApiDescriptionLoader = () => {
  loaded ??= fs
    .readFile(new URL("./graph-sdk.json", import.meta.url), "utf8")
    .then((text) => graphAdsDescription(JSON.parse(text) as GraphSdk));
  return loaded;
};
