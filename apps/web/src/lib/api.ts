import { HEADERS, RELOAD_STATUSES } from "@app/core";
import { getIdentification } from "./identification";

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

export interface ApiRequest {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as a JSON body. */
  json?: unknown;
  /** Sent as multipart form data (the browser sets the boundary). */
  form?: FormData;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  /** Extra headers, e.g. x-authorization for a protected dashboard. */
  headers?: Record<string, string>;
}

function messageOf(status: number, body: unknown): string {
  return bodyMessage(body) ?? `Request failed with status ${status}`;
}

function withQuery(path: string, query: ApiRequest["query"]): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
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

/**
 * The one way the SPA talks to the server: adds the headers of docs/product.md §7, parses JSON,
 * throws ApiError on failure and reloads the page on 588/401/419 (docs/product.md §8).
 */
export async function api<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const headers = new Headers({ Accept: "application/json" });
  headers.set(HEADERS.requestedWith, "XMLHttpRequest");
  headers.set(HEADERS.identification, getIdentification());
  for (const [name, value] of Object.entries(request.headers ?? {})) headers.set(name, value);
  let body: BodyInit | undefined;
  if (request.form) {
    body = request.form;
  } else if (request.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(request.json);
  }

  const response = await fetch(withQuery(path, request.query), {
    method: request.method ?? (body ? "POST" : "GET"),
    headers,
    body,
    credentials: "same-origin",
    signal: request.signal,
  });
  const parsed = await readBody(response);

  if (!response.ok) {
    if (RELOAD_STATUSES.includes(response.status)) window.location.reload();
    throw new ApiError(response.status, parsed);
  }
  return parsed as T;
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
