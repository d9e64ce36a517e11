import type { ApiDescription, DescribedRequest } from "../kit/description";
import { checkSdkFields, type GraphSdk } from "./graph-sdk";

/**
 * One checker for the Graph calls of every Meta connector over Meta's business SDK objects (Facebook
 * Ads' ../facebookAds/description.ts, the Pages and Instagram connectors' ./pages-description.ts;
 * docs/connectors.md "The providers' own API descriptions"). The SDK lists no routes, so each connector
 * names its routes and what is particular to them (its parameters, its insights checks, the shape of a
 * non-list answer); the rest is Meta's and shared here: the version in the path against the pinned
 * release, parameters every call takes, the error envelope, and list pages of described rows.
 */

/** Parameters every Graph call takes (authentication and cursor paging). */
export const GRAPH_COMMON_PARAMS = ["access_token", "appsecret_proof", "limit", "after", "before", "fields"];

/** A route a connector calls: the parameters it takes. */
export interface GraphRoute {
  params: readonly string[];
}

export interface GraphCalls<R extends GraphRoute> {
  /** The pinned file, named when a request's version is not the pinned one ("refresh <file>"). */
  file: string;
  /** The route of a request (`path` without its version), or null when the description does not cover it. */
  routeOf(request: DescribedRequest, path: string): R | null;
  /** Whether the description says which requests it covers (the live check then validates only those). */
  covers?: boolean;
  /** The route's own checks of its parameters (enums, ranges, fields): problems without the label. */
  checkParams(route: R, params: Record<string, string>): string[];
  /**
   * A successful answer that is not an error: `list` when it is a page of rows of `object` (with
   * `extra` columns allowed beside the object's fields, and the page's own `keys`); otherwise the
   * route's own problems.
   */
  answer(
    route: R,
    body: Record<string, unknown>,
  ): { list: { object: string; extra: readonly string[]; keys: readonly string[]; row?: RowCheck } } | string[];
}

/** More checks of one row of a list (an amendment the SDK does not describe). */
export type RowCheck = (row: Record<string, unknown>, at: string) => string[];

/** Meta's error envelope `{error: {message, type, code, fbtrace_id}}`. */
export function checkGraphError(body: unknown): string[] {
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  if (!error || typeof error.message !== "string" || typeof error.code !== "number") {
    return ["answer: not a Graph error ({error: {message, type, code, fbtrace_id}})"];
  }
  return [];
}

function checkPaging(page: Record<string, unknown>): string[] {
  const paging = page.paging as Record<string, unknown> | undefined;
  if (paging === undefined) return [];
  const problems: string[] = [];
  for (const key of Object.keys(paging)) {
    if (!["cursors", "next", "previous"].includes(key)) problems.push(`answer.paging.${key}: not a paging property`);
  }
  if (paging.next !== undefined && typeof paging.next !== "string") problems.push("answer.paging.next: not a string");
  return problems;
}

function checkList(
  sdk: GraphSdk,
  page: Record<string, unknown>,
  list: { object: string; extra: readonly string[]; keys: readonly string[]; row?: RowCheck },
): string[] {
  const problems: string[] = [];
  if (!Array.isArray(page.data)) problems.push("answer.data: not a list");
  else {
    page.data.forEach((item, index) => {
      const row = item as Record<string, unknown>;
      const at = `answer.data[${index}]`;
      problems.push(...checkSdkFields(sdk, list.object, row, at, list.extra), ...(list.row?.(row, at) ?? []));
    });
  }
  problems.push(...checkPaging(page));
  for (const key of Object.keys(page)) {
    if (!list.keys.includes(key)) problems.push(`answer.${key}: not a list property`);
  }
  return problems;
}

/** The description of one connector's Graph calls over the pinned SDK objects. */
export function graphDescription<R extends GraphRoute>(sdk: GraphSdk, calls: GraphCalls<R>): ApiDescription {
  const version = /\(Graph API (v\d+\.\d+)\)/.exec(sdk["x-pinned"].release)?.[1];
  const locate = (request: DescribedRequest): { route: R; label: string } | { problem: string } => {
    const match = /^\/(v\d+\.\d+)(\/.*)$/.exec(request.url.pathname);
    if (!match) return { problem: `${request.url.pathname}: no Graph version in the path` };
    const route = calls.routeOf(request, match[2] ?? "");
    const label = `${request.method} ${match[2]}`;
    if (!route) return { problem: `${label}: not a call this description covers` };
    // A later version the pin says its objects stand for (the pinned file's `carriedTo`) passes too.
    if (match[1] !== version && !(sdk["x-pinned"].carriedTo ?? []).includes(match[1] ?? "")) {
      return {
        problem: `${label}: the request names Graph ${match[1]}, the pinned SDK objects are ${version}'s (refresh ${calls.file})`,
      };
    }
    return { route, label };
  };
  return {
    source: { url: sdk["x-pinned"].url, retrieved: sdk["x-pinned"].retrieved },
    ...(calls.covers && {
      // Sign-in, token exchange and debugging are Facebook Login's, which the SDK objects do not describe.
      covers(request: DescribedRequest) {
        const path = /^\/v\d+\.\d+(\/.*)$/.exec(request.url.pathname)?.[1];
        return path !== undefined && calls.routeOf(request, path) !== null;
      },
    }),
    checkRequest(request) {
      const found = locate(request);
      if ("problem" in found) return [found.problem];
      const { route, label } = found;
      const params: Record<string, string> = Object.fromEntries(request.url.searchParams);
      if (request.body && typeof request.body === "object") Object.assign(params, request.body);
      const problems = Object.keys(params)
        .filter((name) => !route.params.includes(name))
        .map((name) => `unknown parameter ${name}`);
      problems.push(...calls.checkParams(route, params));
      return problems.map((problem) => `${label}: ${problem}`);
    },
    checkResponse(request, status, body) {
      const found = locate(request);
      if ("problem" in found) return [found.problem];
      const { route, label } = found;
      const problems: string[] = [];
      if (status >= 400) problems.push(...checkGraphError(body));
      else if (!body || typeof body !== "object" || Array.isArray(body)) problems.push("answer: not a JSON object");
      else {
        const answer = calls.answer(route, body as Record<string, unknown>);
        problems.push(
          ...(Array.isArray(answer) ? answer : checkList(sdk, body as Record<string, unknown>, answer.list)),
        );
      }
      return problems.map((problem) => `${label} → ${status}: ${problem}`);
    },
  };
}
