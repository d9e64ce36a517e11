import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeEntry, FakeFault, FakePart } from "../../../test/fakes/app";
import { answerFault, pathOf } from "../../../test/fakes/kit";

/**
 * Base CRM's API v2 and OAuth 2 (Zendesk Sell, api.getbase.com) as a part of the fakes app (./app.ts),
 * for the "Base.me" connector. Shapes follow Base's reference (developers.getbase.com/docs/rest, kept
 * by Zendesk at developer.zendesk.com/api-reference/sales-crm) and docs/connectors.md:
 * - `GET /oauth2/authorize` → 302 back with `code` and `state`, or `error=access_denied`;
 * - `POST /oauth2/token` (form, the client in HTTP Basic) → `{access_token, token_type: "bearer",
 *   expires_in: 3599, refresh_token, scope}`; `invalid_client` (401), `invalid_grant` (400);
 * - every request without a `User-Agent` header → 400 (Base's rate-limit page: "requests without a
 *   User-Agent header will be rejected"), token requests included;
 * - lists `{items: [{data, meta: {type}}], meta: {type: "collection", count, links: {self, next_page}}}`,
 *   `per_page` at most 100 (more is refused), `page` from 1; one object `{data, meta: {type}}`;
 * - failures `{errors: [{error: {code, message, details}, meta: {type: "error"}}], meta: {type: "errors",
 *   http_status, logref}}`: 401 for a token Base does not know or that expired.
 * Error wording and the exact 400 body are assumed (docs/connectors.md). Served under `/base` on the
 * fakes' origin: `/oauth2/…` and `/v2/users` are too generic to share the origin's root.
 */

export const BASE_PREFIX = "/base";

export interface FakeBaseDeal {
  id: number;
  name: string;
  value: string;
  currency: string;
  stage: number;
  owner: number | null;
  addedAt: string;
  lastStageChangeAt: string;
}
export interface FakeBaseLead {
  id: number;
  owner: number | null;
  status: string;
  createdAt: string;
}

export interface FakeBase {
  clientId: string;
  clientSecret: string;
  /** The user refuses consent on the next authorisation. */
  deny: boolean;
  deals: FakeBaseDeal[];
  leads: FakeBaseLead[];
  /** Access or refresh tokens the user revoked. */
  revoked: Set<string>;
  /** Scripted faults: without `pathIncludes` a fault takes the next `/v2/` data call. */
  failNext: FakeFault[];
  /** Makes every access token handed out so far expire now. */
  expireAccessTokens(): void;
  /** Refresh grants served. */
  refreshes: number;
}

export const BASE_USER = { id: 501, name: "Jane Doe", email: "jane@acme.example" };
export const BASE_USERS = [BASE_USER, { id: 502, name: "Tom Lee", email: "tom@acme.example" }];

export const BASE_PIPELINES = [
  { id: 1, name: "Sales", disabled: false },
  { id: 2, name: "Partnerships", disabled: false },
  { id: 3, name: "Old pipeline", disabled: true },
];
export const BASE_STAGES = [
  { id: 11, name: "Incoming", category: "incoming", position: 1, likelihood: 10, pipeline_id: 1, active: true },
  { id: 12, name: "Qualified", category: "qualified", position: 2, likelihood: 50, pipeline_id: 1, active: true },
  { id: 13, name: "Won", category: "won", position: 3, likelihood: 100, pipeline_id: 1, active: false },
  { id: 14, name: "Lost", category: "lost", position: 4, likelihood: 0, pipeline_id: 1, active: false },
  { id: 21, name: "Talks", category: "incoming", position: 1, likelihood: 30, pipeline_id: 2, active: true },
  { id: 22, name: "Won", category: "won", position: 2, likelihood: 100, pipeline_id: 2, active: false },
  { id: 23, name: "Lost", category: "lost", position: 3, likelihood: 0, pipeline_id: 2, active: false },
];

const at = (day: string, time = "10:00:00") => `${day}T${time}Z`;

export const BASE_DEALS: readonly FakeBaseDeal[] = [
  // Won in October: EUR 12,000 and 4,000, USD 9,000 (another currency: counted, not added to the money).
  deal(101, "Acme renewal", "12000.00", "EUR", 13, 501, "2026-09-10", "2026-10-02"),
  deal(105, "Stark US", "9000.00", "USD", 13, 501, "2026-09-20", "2026-10-03"),
  deal(106, "Wayne", "4000.00", "EUR", 13, 502, "2026-10-01", "2026-10-07"),
  // Won in November: outside October.
  deal(108, "Oscorp", "6000.00", "EUR", 13, 502, "2026-10-12", "2026-11-02"),
  // Lost in October.
  deal(104, "Umbrella", "3000.00", "EUR", 14, 502, "2026-09-01", "2026-10-06"),
  // Open, added in October.
  deal(102, "Globex pilot", "8000.00", "EUR", 12, 502, "2026-10-05", "2026-10-08"),
  deal(103, "Initech", "5000.00", "EUR", 11, 501, "2026-10-05", "2026-10-05"),
  deal(107, "Hooli", "7000.00", "EUR", 12, null, "2026-10-20", "2026-10-21"),
  // Another pipeline.
  deal(201, "Reseller deal", "50000.00", "EUR", 22, 501, "2026-09-01", "2026-10-03"),
  // September: 150 small open deals in Incoming (more than one page of 100).
  ...Array.from({ length: 150 }, (_, index) => {
    const day = `2026-09-${String(1 + (index % 30)).padStart(2, "0")}`;
    return deal(1000 + index, `Lead deal ${index + 1}`, "100.00", "EUR", 11, index % 2 === 0 ? 501 : 502, day, day);
  }),
];

function deal(
  id: number,
  name: string,
  value: string,
  currency: string,
  stage: number,
  owner: number | null,
  added: string,
  changed: string,
): FakeBaseDeal {
  return { id, name, value, currency, stage, owner, addedAt: at(added, "09:00:00"), lastStageChangeAt: at(changed) };
}

/** Leads: 4 a day on October's days 1–30 (owner and status alternate), and 20 in late September. */
export const BASE_LEADS: readonly FakeBaseLead[] = [
  ...Array.from({ length: 120 }, (_, index) => ({
    id: 7000 + index,
    owner: index % 2 === 0 ? 501 : index % 3 === 0 ? null : 502,
    status: index % 4 === 0 ? "Working" : "New",
    createdAt: at(`2026-10-${String(1 + Math.floor(index / 4)).padStart(2, "0")}`, `0${index % 4}:30:00`),
  })),
  ...Array.from({ length: 20 }, (_, index) => ({
    id: 6000 + index,
    owner: 501,
    status: "New",
    createdAt: at(`2026-09-${String(11 + index).padStart(2, "0")}`),
  })),
];

let logref = 0;
/** Base's error envelope. */
export function baseError(reply: FastifyReply, status: number, code: string, message: string, details?: string) {
  logref += 1;
  const reason: Record<number, string> = {
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    422: "Unprocessable Entity",
    429: "Too Many Requests",
  };
  return reply.code(status).send({
    errors: [{ error: { code, message, ...(details ? { details } : {}) }, meta: { type: "error" } }],
    meta: { type: "errors", http_status: `${status} ${reason[status] ?? ""}`.trim(), logref: `fake-${logref}` },
  });
}

const hasUserAgent = (request: FastifyRequest) => String(request.headers["user-agent"] ?? "").trim() !== "";

export function baseFake(): FakePart<FakeBase> {
  const codes = new Map<string, { redirectUri: string }>();
  const access = new Map<string, { expiresAt: number; refresh: string }>();
  const refresh = new Set<string>();
  let counter = 0;
  const state: FakeBase = {
    clientId: "base-fake-client-id",
    clientSecret: "base-fake-client-secret",
    deny: false,
    deals: [...BASE_DEALS],
    leads: [...BASE_LEADS],
    revoked: new Set(),
    failNext: [],
    refreshes: 0,
    expireAccessTokens() {
      for (const entry of access.values()) entry.expiresAt = 0;
    },
  };
  const issue = (refreshToken?: string) => {
    counter += 1;
    const token = `base-access-${counter}`;
    const nextRefresh = refreshToken ?? `base-refresh-${counter}`;
    access.set(token, { expiresAt: Date.now() + 3599_000, refresh: nextRefresh });
    refresh.add(nextRefresh);
    return {
      access_token: token,
      token_type: "bearer",
      expires_in: 3599,
      refresh_token: nextRefresh,
      scope: "read profile",
    };
  };
  const list = (request: FastifyRequest, reply: FastifyReply, type: string, all: readonly unknown[]) => {
    const query = request.query as Record<string, string | undefined>;
    const perPage = Number(query.per_page ?? 25);
    const page = Number(query.page ?? 1);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
      return baseError(reply, 422, "invalid_param", "Invalid parameter", "per_page must be between 1 and 100");
    }
    if (!Number.isInteger(page) || page < 1) {
      return baseError(reply, 422, "invalid_param", "Invalid parameter", "page must be a positive integer");
    }
    const items = all.slice((page - 1) * perPage, page * perPage);
    const url = new URL(request.url, "http://fake");
    const next = page * perPage < all.length ? new URL(url) : null;
    next?.searchParams.set("page", String(page + 1));
    return {
      items: items.map((data) => ({ data, meta: { type } })),
      meta: {
        type: "collection",
        count: items.length,
        links: { self: url.toString(), ...(next ? { next_page: next.toString() } : {}) },
      },
    };
  };

  return {
    state,
    env: (origin) => ({
      BASE_CLIENT_ID: state.clientId,
      BASE_CLIENT_SECRET: state.clientSecret,
      BASE_API_URL: `${origin}${BASE_PREFIX}`,
    }),
    register(app) {
      app.register(
        async (scope) => {
          scope.addHook("preHandler", async (request, reply) => {
            if (!hasUserAgent(request)) {
              return baseError(reply, 400, "bad_request", "Bad Request", "User-Agent header is missing");
            }
          });

          scope.get("/oauth2/authorize", async (request, reply) => {
            const query = request.query as Record<string, string | undefined>;
            if (query.client_id !== state.clientId || query.response_type !== "code") {
              return reply.code(400).type("text/html").send("<p>The client is unknown or the request is invalid.</p>");
            }
            const redirect = new URL(query.redirect_uri ?? "");
            redirect.searchParams.set("state", query.state ?? "");
            if (state.deny) {
              state.deny = false;
              redirect.searchParams.set("error", "access_denied");
            } else {
              const code = `base-code-${++counter}`;
              codes.set(code, { redirectUri: query.redirect_uri ?? "" });
              redirect.searchParams.set("code", code);
            }
            return reply.redirect(redirect.toString(), 302);
          });

          scope.post("/oauth2/token", async (request, reply) => {
            const basic = /^Basic (.+)$/.exec(String(request.headers.authorization ?? ""))?.[1] ?? "";
            const [id, secret] = Buffer.from(basic, "base64").toString().split(":");
            if (id !== state.clientId || secret !== state.clientSecret) {
              return reply
                .code(401)
                .send({ error: "invalid_client", error_description: "Client authentication failed" });
            }
            const form = (request.body ?? {}) as Record<string, string | undefined>;
            if (form.grant_type === "authorization_code") {
              const known = form.code ? codes.get(form.code) : undefined;
              if (form.code) codes.delete(form.code);
              if (!known || known.redirectUri !== form.redirect_uri) {
                return reply
                  .code(400)
                  .send({ error: "invalid_grant", error_description: "The code is invalid or was used" });
              }
              return issue();
            }
            if (form.grant_type === "refresh_token") {
              const token = form.refresh_token ?? "";
              if (!refresh.has(token) || state.revoked.has(token)) {
                return reply
                  .code(400)
                  .send({ error: "invalid_grant", error_description: "The refresh token is invalid" });
              }
              state.refreshes += 1;
              return issue(token);
            }
            return reply.code(400).send({ error: "unsupported_grant_type" });
          });

          // The API: a live bearer token, then a scripted fault if one is waiting.
          scope.register(
            async (v2) => {
              v2.addHook("preHandler", async (request, reply) => {
                const token = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ""))?.[1] ?? "";
                const entry = access.get(token);
                if (
                  !entry ||
                  entry.expiresAt <= Date.now() ||
                  state.revoked.has(token) ||
                  state.revoked.has(entry.refresh)
                ) {
                  return baseError(
                    reply,
                    401,
                    "unauthorized",
                    "Unauthorized",
                    "The access token is invalid or has expired",
                  );
                }
                const fault = answerFault(state.failNext, reply, pathOf(request));
                if (fault) return fault;
              });
              v2.get("/users/self", async () => ({
                data: { ...BASE_USER, status: "active", role: "admin", created_at: "2020-01-01T00:00:00Z" },
                meta: { type: "user" },
              }));
              v2.get("/users", async (request, reply) => list(request, reply, "user", BASE_USERS));
              v2.get("/pipelines", async (request, reply) => list(request, reply, "pipeline", BASE_PIPELINES));
              v2.get("/stages", async (request, reply) => {
                const pipeline = (request.query as Record<string, string | undefined>).pipeline_id;
                const stages = BASE_STAGES.filter((stage) => !pipeline || String(stage.pipeline_id) === pipeline);
                return list(request, reply, "stage", stages);
              });
              v2.get("/deals", async (request, reply) => {
                const stage = (request.query as Record<string, string | undefined>).stage_id;
                const deals = state.deals
                  .filter((entry) => !stage || String(entry.stage) === stage)
                  .sort((a, b) => a.id - b.id)
                  .map((entry) => ({
                    id: entry.id,
                    name: entry.name,
                    value: entry.value,
                    currency: entry.currency,
                    stage_id: entry.stage,
                    owner_id: entry.owner,
                    hot: false,
                    added_at: entry.addedAt,
                    last_stage_change_at: entry.lastStageChangeAt,
                    created_at: entry.addedAt,
                    updated_at: entry.lastStageChangeAt,
                  }));
                return list(request, reply, "deal", deals);
              });
              v2.get("/leads", async (request, reply) => {
                const sort = (request.query as Record<string, string | undefined>).sort_by ?? "id";
                const leads = [...state.leads].sort((a, b) =>
                  sort === "created_at:desc" ? b.createdAt.localeCompare(a.createdAt) || b.id - a.id : a.id - b.id,
                );
                return list(
                  request,
                  reply,
                  "lead",
                  leads.map((lead) => ({
                    id: lead.id,
                    owner_id: lead.owner,
                    status: lead.status,
                    first_name: "Lead",
                    last_name: String(lead.id),
                    created_at: lead.createdAt,
                    updated_at: lead.createdAt,
                  })),
                );
              });
            },
            { prefix: "/v2" },
          );
        },
        { prefix: BASE_PREFIX },
      );
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "base",
  build: () => baseFake(),
};
