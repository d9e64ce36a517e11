import {
  HEADERS,
  RELOAD_STATUSES,
  ROUTE_LINES,
  type RouteInput,
  type RouteMethod,
  type RouteName,
  type RouteOutput,
  routePath,
  splitRouteLine,
} from "@app/core";
import { getIdentification } from "./identification";
import { realtimeSocketId } from "./socket-id";
import { transport } from "./transport";

// Error bodies are read by hand rather than with the contract's zod schemas: this module is on every
// screen's first load, and zod would add ~25 KB gzip to it (the public dashboard's budget is 180 KB).

/** The `message` of an error body (`{ code, message }` or a 422's `{ message, errors }`), if it has one. */
function bodyMessage(body: unknown): string | null {
  if (typeof body !== "object" || body === null) return null;
  const message = (body as { message?: unknown }).message;
  return typeof message === "string" && message !== "" ? message : null;
}

/** A 422 body's `errors` (field → messages), or null when the body is not shaped like one. */
function bodyErrors(body: unknown): Record<string, string[]> | null {
  if (typeof body !== "object" || body === null) return null;
  const errors = (body as { errors?: unknown }).errors;
  if (errors === undefined) return {};
  if (typeof errors !== "object" || errors === null || Array.isArray(errors)) return null;
  for (const messages of Object.values(errors)) {
    if (!Array.isArray(messages) || messages.some((message) => typeof message !== "string")) return null;
  }
  return errors as Record<string, string[]>;
}

/** A non-2xx answer of the server, with its parsed body (JSON when the server sent JSON). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    super(messageOf(status, body));
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }
}

interface Request {
  method: RouteMethod;
  /** Sent as a JSON body. */
  json?: unknown;
  /** Sent as multipart form data (the browser sets the boundary). */
  form?: FormData;
  query?: Record<string, unknown>;
}

/** Options of one call besides its inputs. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Extra headers, e.g. x-authorization for a protected dashboard. */
  headers?: Record<string, string>;
}

function messageOf(status: number, body: unknown): string {
  return bodyMessage(body) ?? `Request failed with status ${status}`;
}

/** Query values as the server reads them: lists as repeated keys, absent values left out. */
function withQuery(path: string, query: Request["query"]): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) params.append(key, String(item));
    }
  }
  const search = params.toString();
  return search ? `${path}${path.includes("?") ? "&" : "?"}${search}` : path;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json")) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** The headers every call carries (docs/product.md §7): XHR marker and the page's identification. */
let embedToken: string | null = null;

/**
 * The signed token of an embedded view (/dashboards/:permalink/embed?token=…): every call of that page
 * carries it, so the dashboard and each widget's data are granted by the link, not by a session.
 */
export function setEmbedToken(token: string | null): void {
  embedToken = token;
}

export function apiHeaders(extra: Record<string, string> = {}): Headers {
  const headers = new Headers({ Accept: "application/json" });
  headers.set(HEADERS.requestedWith, "XMLHttpRequest");
  headers.set(HEADERS.identification, getIdentification());
  if (embedToken !== null) headers.set(HEADERS.embedToken, embedToken);
  const socketId = realtimeSocketId();
  if (socketId) headers.set(HEADERS.socketId, socketId);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return headers;
}

/**
 * Sends one request: adds the headers of docs/product.md §7, parses JSON, throws ApiError on failure and
 * reloads the page on 588/401/419 (docs/product.md §8).
 */
async function send(
  path: string,
  request: Request,
  options: CallOptions,
): Promise<{ body: unknown; headers: Headers }> {
  const headers = apiHeaders(options.headers);
  let body: BodyInit | undefined;
  if (request.form) {
    body = request.form;
  } else if (request.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(request.json);
  }
  const response = await transport(withQuery(path, request.query), {
    method: request.method,
    headers,
    body,
    credentials: "same-origin",
    signal: options.signal,
  });
  const parsed = await readBody(response);
  if (!response.ok) {
    if (RELOAD_STATUSES.includes(response.status)) window.location.reload();
    // The company requires two-factor and this user has none yet: the set-up page is the only one open.
    if (response.status === 403 && (parsed as { code?: unknown } | null)?.code === "two_factor_required") {
      window.location.assign("/two-factor/setup");
    }
    throw new ApiError(response.status, parsed);
  }
  return { body: parsed, headers: response.headers };
}

/** The inputs of a route as one loose shape, for the one place that builds the request from them. */
interface AnyInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  form?: unknown;
}

/** A call's arguments: the inputs may be left out where the route has none. */
type CallArgs<N extends RouteName> = keyof RouteInput<N> extends never
  ? [input?: RouteInput<N>, options?: CallOptions]
  : [input: RouteInput<N>, options?: CallOptions];

/**
 * The one way the SPA calls the API: by the route's name in the contract's table (packages/core
 * contract/routes.ts), with that route's typed params, query and body, answering its typed output.
 * The answer is the server's, which checked it against the same contract before sending it (its
 * response schema), so it is not validated again here: zod stays out of the first load.
 */
export async function callWithHeaders<N extends RouteName>(
  name: N,
  ...[input, options]: CallArgs<N>
): Promise<{ data: RouteOutput<N>; headers: Headers }> {
  const { method, path } = splitRouteLine(ROUTE_LINES[name]);
  const loose: AnyInput = input ?? {};
  const form = loose.form instanceof FormData ? loose.form : undefined;
  const { body, headers } = await send(
    routePath(path, loose.params),
    { method, form, json: form ? undefined : loose.body, query: loose.query },
    options ?? {},
  );
  return { data: body as RouteOutput<N>, headers };
}

/** Calls an API route by name (see callWithHeaders) and answers its output. */
export async function call<N extends RouteName>(name: N, ...args: CallArgs<N>): Promise<RouteOutput<N>> {
  return (await callWithHeaders(name, ...args)).data;
}

/** Per-field messages of a 422 answer (first message of each field), or null for any other error. */
export function fieldErrors(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const errors = bodyErrors(error.body);
  if (!errors) return null;
  const result: Record<string, string> = {};
  for (const [field, messages] of Object.entries(errors)) {
    if (messages.length > 0) result[field] = messages[0];
  }
  const message = bodyMessage(error.body);
  if (Object.keys(result).length === 0 && message) result.general = message;
  return result;
}

/** A sentence for a person, whatever went wrong. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 429) return "Too many attempts. Please wait a minute and try again.";
    if (error.status === 403) {
      return bodyMessage(error.body) ?? "You are not allowed to do this.";
    }
    if (error.status === 404) return "We could not find what you were looking for.";
    if (error.status >= 500) return "Something went wrong on our side. Please try again.";
    return error.message;
  }
  if (error instanceof TypeError) return "We could not reach the server. Check your connection and try again.";
  return "Something went wrong. Please try again.";
}
