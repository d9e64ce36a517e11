import { z } from "zod";
import { sha256 } from "../../infra/security";
import type { Classifier } from "../http/classify";
import { createProviderClient, type QuotaBucket } from "../http/client";
import { ProviderError, parseRetryAfter } from "../http/errors";
import { perRuntime } from "../http/per-runtime";
import { sharedAccessToken } from "../oauth/single-refresh";
import type { ConnectorRuntime, SourceHandle } from "../types";
import { BASE_USER_AGENT, baseOrigin, baseTokens } from "./oauth";

/**
 * Base CRM's API v2 (Zendesk Sell, https://api.getbase.com/v2): every answer is an envelope,
 * `{items: [{data: {…}, meta: {type}}], meta: {type: "collection", count, links: {self, next_page}}}`
 * for lists, `{data, meta}` for one object, `{errors: [{error: {code, message, details}}], meta}` for
 * failures. Pages are `page` (from 1) and `per_page` (at most 100).
 */

const ZMeta = z
  .object({
    type: z.string().optional(),
    count: z.number().optional(),
    links: z.object({ next_page: z.string().nullish() }).partial().optional(),
  })
  .optional();

/** A list envelope around items of `data`'s shape. */
export const collection = <T extends z.ZodTypeAny>(data: T) =>
  z.object({
    items: z.array(z.object({ data, meta: z.object({ type: z.string() }).partial().optional() })),
    meta: ZMeta,
  });

export const ZPipeline = z.object({ id: z.coerce.string(), name: z.string(), disabled: z.boolean().nullish() });
export const ZStage = z.object({
  id: z.coerce.string(),
  name: z.string(),
  /** Base's stage category: `won` and `lost` are the pipeline's closing stages, the others open. */
  category: z.string().nullish(),
  position: z.number().nullish(),
  likelihood: z.number().nullish(),
  pipeline_id: z.coerce.string(),
  active: z.boolean().nullish(),
});
export type Stage = z.infer<typeof ZStage>;
export const ZDeal = z.object({
  id: z.coerce.string(),
  name: z.string().nullish(),
  /** Base sends a decimal string ("1000.50") or a number. */
  value: z.coerce.number().nullish(),
  currency: z.string().nullish(),
  owner_id: z.coerce.string().nullish(),
  stage_id: z.coerce.string(),
  added_at: z.string().nullish(),
  last_stage_change_at: z.string().nullish(),
  created_at: z.string().nullish(),
});
export type Deal = z.infer<typeof ZDeal>;
export const ZLead = z.object({
  id: z.coerce.string(),
  owner_id: z.coerce.string().nullish(),
  status: z.string().nullish(),
  created_at: z.string(),
});
export type Lead = z.infer<typeof ZLead>;
export const ZUser = z.object({ id: z.coerce.string(), name: z.string().nullish(), email: z.string().nullish() });

/** Base's words from its error envelope: the first error's message and details. */
function baseMessage(body: unknown): string {
  const errors = (body as { errors?: unknown } | null)?.errors;
  const first = Array.isArray(errors) ? (errors[0] as { error?: Record<string, unknown> } | undefined)?.error : null;
  if (first) {
    const message = typeof first.message === "string" ? first.message : "";
    const details = typeof first.details === "string" ? first.details : "";
    return [message, details].filter(Boolean).join(": ");
  }
  const error = (body as { error?: unknown; error_description?: unknown } | null) ?? null;
  if (error && typeof error.error === "string") {
    return typeof error.error_description === "string" ? `${error.error}: ${error.error_description}` : error.error;
  }
  return typeof body === "string" ? body.slice(0, 200) : "";
}

/**
 * Base's statuses: 401 the token is unknown, revoked or expired; 403 the token lacks the scope (both mean
 * connecting again); 429 the token's hourly allowance or its pace is exceeded (Base sends no headers);
 * 400, 404 and 422 the request's parameters; 5xx Base failing.
 */
export const classifyBase: Classifier = (provider, answer) => {
  if (answer.status >= 200 && answer.status < 300) return null;
  const message = baseMessage(answer.body) || `HTTP ${answer.status}`;
  const options = {
    httpStatus: answer.status,
    retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), answer.now),
  };
  if (answer.status === 401 || answer.status === 403) return new ProviderError(provider, "auth", message, options);
  if (answer.status === 429) return new ProviderError(provider, "rate", message, options);
  if (answer.status >= 500) return new ProviderError(provider, "server", message, options);
  return new ProviderError(provider, "input", message, options);
};

/** One client per process, so the per-token limits hold across requests. */
export const baseClient = perRuntime((runtime: ConnectorRuntime) =>
  createProviderClient({
    provider: "base",
    baseUrl: baseOrigin(runtime.providers.base),
    classify: classifyBase,
    counters: runtime.counters,
    concurrency: 4,
  }),
);

/**
 * Base allows 36,000 requests an hour per access token, at most 10 a second (Zendesk Sell's rate limits
 * page), and sends no limit headers, only 429. The hour is a quota (wait for the window); the pace is
 * held at 10 a second averaged over a minute so a dashboard's burst is not refused.
 */
const quotas = (tokenKey: string): QuotaBucket[] => [
  { key: `${tokenKey}:hour`, max: 36_000, windowMs: 3_600_000, kind: "quota" },
  { key: `${tokenKey}:pace`, max: 600, windowMs: 60_000, kind: "rate" },
];

/** A function asking Base for one path with the source's token (refreshed and written back when it expires). */
export async function baseApi(source: SourceHandle) {
  const runtime = source.runtime;
  const token = await sharedAccessToken(baseTokens(runtime.providers.base, runtime.counters), source);
  const tokenKey = `token:${sha256(token).slice(0, 16)}`;
  const api = baseClient(runtime);
  return <T>(path: string, schema: z.ZodType<T>, query?: Record<string, string | number>) =>
    api.request({
      path: `/v2${path}`,
      query,
      headers: { authorization: `Bearer ${token}`, accept: "application/json", "user-agent": BASE_USER_AGENT },
      schema,
      limitKey: tokenKey,
      quotas: quotas(tokenKey),
    });
}

export type BaseAsk = Awaited<ReturnType<typeof baseApi>>;

/** Per page Base allows at most 100; pages followed at most (10,000 items) before the range is called too large. */
export const PER_PAGE = 100;
export const MAX_PAGES = 100;

/**
 * Every item of a list, page by page while Base names a next page; `stop` ends early (lists sorted
 * newest first, once past the range).
 */
export async function allItems<T>(
  ask: BaseAsk,
  path: string,
  schema: z.ZodType<T>,
  query: Record<string, string | number>,
  stop: (items: T[]) => boolean = () => false,
): Promise<T[]> {
  const listSchema = collection(schema as z.ZodTypeAny) as unknown as z.ZodType<{
    items: { data: T }[];
    meta?: { links?: { next_page?: string | null } };
  }>;
  const items: T[] = [];
  for (let page = 1; ; page += 1) {
    if (page > MAX_PAGES) {
      throw new ProviderError("base", "input", `more than ${PER_PAGE * MAX_PAGES} items; choose a shorter range`);
    }
    const answer = await ask(path, listSchema, { ...query, page, per_page: PER_PAGE });
    const batch = answer.items.map((item) => item.data);
    items.push(...batch);
    if (!answer.meta?.links?.next_page || batch.length < PER_PAGE || stop(batch)) break;
  }
  return items;
}
