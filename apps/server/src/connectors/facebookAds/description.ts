import fs from "node:fs/promises";
import type { ApiDescription, ApiDescriptionLoader, DescribedRequest } from "../kit/description";
import { checkSdkFields, type GraphSdk, notAmong } from "../meta/graph-sdk";

/**
 * The Marketing API as Meta's business SDK describes it for the pinned Graph version (./graph-sdk.json,
 * extracted by ../meta/graph-sdk.ts; docs/connectors.md "Facebook Ads"): the objects' fields and the
 * insights enums (levels, breakdowns, action breakdowns, attribution windows, date presets). The SDK
 * lists no routes; the routes below are the ones the connector calls, each tied to the object it reads.
 */

/** Parameters every Graph call takes (authentication and cursor paging). */
const COMMON = ["access_token", "appsecret_proof", "limit", "after", "before", "fields"];
/** The insights edge's parameters besides its enums (Meta's insights reference lists them). */
const INSIGHTS_PARAMS = [
  ...COMMON,
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

type Route = { kind: "insights"; start: boolean } | { kind: "object"; object: string; list: boolean; params: string[] };

function routeOf(method: string, path: string): Route | null {
  if (/^\/(act_\d+|\d+)\/insights$/.test(path)) {
    if (method === "POST" && path.startsWith("/act_")) return { kind: "insights", start: true };
    return method === "GET" ? { kind: "insights", start: false } : null;
  }
  if (method !== "GET") return null;
  if (path === "/me/adaccounts") return { kind: "object", object: "AdAccount", list: true, params: COMMON };
  if (/^\/act_\d+$/.test(path)) return { kind: "object", object: "AdAccount", list: false, params: COMMON };
  if (/^\/act_\d+\/campaigns$/.test(path)) {
    return { kind: "object", object: "Campaign", list: true, params: [...COMMON, "effective_status"] };
  }
  if (/^\/\d+$/.test(path)) return { kind: "object", object: "AdReportRun", list: false, params: COMMON };
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

function checkGraphError(body: unknown): string[] {
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  if (!error || typeof error.message !== "string" || typeof error.code !== "number") {
    return ["answer: not a Graph error ({error: {message, type, code, fbtrace_id}})"];
  }
  return [];
}

function checkPaging(body: Record<string, unknown>): string[] {
  const paging = body.paging as Record<string, unknown> | undefined;
  if (paging === undefined) return [];
  const problems: string[] = [];
  for (const key of Object.keys(paging)) {
    if (!["cursors", "next", "previous"].includes(key)) problems.push(`answer.paging.${key}: not a paging property`);
  }
  if (paging.next !== undefined && typeof paging.next !== "string") problems.push("answer.paging.next: not a string");
  return problems;
}

/** The description of the Marketing API calls over the pinned SDK objects. */
export function graphAdsDescription(sdk: GraphSdk): ApiDescription {
  const version = /\(Graph API (v\d+\.\d+)\)/.exec(sdk["x-pinned"].release)?.[1];
  const locate = (request: DescribedRequest) => {
    const match = /^\/(v\d+\.\d+)(\/.*)$/.exec(request.url.pathname);
    if (!match) return { problem: `${request.url.pathname}: no Graph version in the path` };
    const route = routeOf(request.method, match[2]);
    const label = `${request.method} ${match[2]}`;
    if (!route) return { problem: `${label}: not a call this description covers` };
    // A later version the pin says its objects stand for (graph-sdk.json's `carriedBecause`) passes too.
    if (match[1] !== version && !(sdk["x-pinned"].carriedTo ?? []).includes(match[1] ?? "")) {
      return {
        problem: `${label}: the request names Graph ${match[1]}, the pinned SDK objects are ${version}'s (refresh graph-sdk.json)`,
      };
    }
    return { route, label };
  };
  return {
    source: { url: sdk["x-pinned"].url, retrieved: sdk["x-pinned"].retrieved },
    checkRequest(request) {
      const found = locate(request);
      if (!found.route) return [found.problem];
      const params: Record<string, string> = Object.fromEntries(request.url.searchParams);
      if (request.body && typeof request.body === "object") Object.assign(params, request.body);
      const { route, label } = found;
      const allowed = route.kind === "insights" ? INSIGHTS_PARAMS : route.params;
      const problems = Object.keys(params)
        .filter((name) => !allowed.includes(name))
        .map((name) => `unknown parameter ${name}`);
      if (route.kind === "insights") problems.push(...checkInsightsParams(sdk, params));
      else if (params.fields !== undefined) {
        const fields = Object.keys(sdk.objects[route.object].fields);
        for (const field of notAmong(params.fields, fields)) {
          problems.push(`fields: "${field}" is not a field of ${route.object}`);
        }
      }
      if (route.kind === "object" && params.effective_status !== undefined) {
        const statuses = json(params.effective_status);
        const known = sdk.objects.Campaign.enums.EffectiveStatus;
        if (!Array.isArray(statuses) || statuses.some((status) => !known.includes(status))) {
          problems.push(`effective_status: ${params.effective_status} is not a list of ${known.join(", ")}`);
        }
      }
      return problems.map((problem) => `${label}: ${problem}`);
    },
    checkResponse(request, status, body) {
      const found = locate(request);
      if (!found.route) return [found.problem];
      const { route, label } = found;
      const problems: string[] = [];
      if (status >= 400) problems.push(...checkGraphError(body));
      else if (!body || typeof body !== "object" || Array.isArray(body)) problems.push("answer: not a JSON object");
      else if (route.kind === "insights" && route.start) {
        const run = body as Record<string, unknown>;
        if (typeof run.report_run_id !== "string" || Object.keys(run).length !== 1) {
          problems.push("answer: not {report_run_id}");
        }
      } else if (route.kind === "insights" || route.list) {
        const page = body as Record<string, unknown>;
        const object = route.kind === "insights" ? "AdsInsights" : route.object;
        // Breakdown columns come back beside the fields they break down.
        const extra =
          route.kind === "insights"
            ? [...sdk.objects.AdsInsights.enums.Breakdowns, ...sdk.objects.AdsInsights.enums.ActionBreakdowns]
            : [];
        if (!Array.isArray(page.data)) problems.push("answer.data: not a list");
        else {
          page.data.forEach((row, index) => {
            problems.push(
              ...checkSdkFields(sdk, object, row as Record<string, unknown>, `answer.data[${index}]`, extra),
            );
          });
        }
        problems.push(...checkPaging(page));
        for (const key of Object.keys(page)) {
          if (!["data", "paging", "summary"].includes(key)) problems.push(`answer.${key}: not a list property`);
        }
      } else problems.push(...checkSdkFields(sdk, route.object, body as Record<string, unknown>, "answer"));
      return problems.map((problem) => `${label} → ${status}: ${problem}`);
    },
  };
}

let loaded: Promise<ApiDescription> | undefined;
/** The pinned SDK objects, read when first asked for. */
export const facebookAdsDescription: ApiDescriptionLoader = () => {
  loaded ??= fs
    .readFile(new URL("./graph-sdk.json", import.meta.url), "utf8")
    .then((text) => graphAdsDescription(JSON.parse(text) as GraphSdk));
  return loaded;
};
