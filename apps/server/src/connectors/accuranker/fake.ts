import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeEntry, FakeFault, FakePart } from "../../../test/fakes/app";
import { answerFault, pathOf } from "../../../test/fakes/kit";

/**
 * AccuRanker's OAuth 2 and Read API v4 as a part of the fakes app (./app.ts), after AccuRanker's
 * read-docs as recovered in a public API brief (docs/connectors.md):
 * - `GET /oauth/authorize/` → 302 back with `code` and `state`, or `error=access_denied`;
 * - `POST /oauth/token/` (form with client_id and client_secret; `authorization_code` and `refresh_token`
 *   grants) → `{access_token, token_type: "Bearer", expires_in, refresh_token, scope}`;
 * - `GET /api/v4/accounts/`, `/api/v4/domains/`, `/api/v4/domains/{id}/keywords/`: lists projected by
 *   `fields` (dot notation for nested objects and lists): **without `fields` every object is `{}`**, as
 *   AccuRanker answers; `period_from`/`period_to` at most 100 days apart (400 otherwise);
 * - DRF errors `{detail}`: 401 for a token it does not know or that expired, 429 with Retry-After when
 *   more than 4 requests are in flight at once (AccuRanker allows 4 simultaneous connections).
 * Ranks are `{rank, created_at}`, one check a day; `rank` null when not in the top 100. Wording assumed.
 * Served under `/accuranker` on the fakes' origin (its `/oauth/…` and `/api/…` are generic paths).
 */

export const ACCURANKER_PREFIX = "/accuranker";
export const ACCURANKER_ACCOUNTS = [
  { id: 311, name: "Acme Agency" },
  { id: 312, name: "Other Agency" },
];
export const ACCURANKER_DOMAINS = [
  { id: 9001, domain: "acme.example", display_name: "Acme" },
  { id: 9002, domain: "shop.example", display_name: "" },
];
/** Keywords of domain 9001 and their base rank (null: never in the top 100). */
export const ACCURANKER_KEYWORDS = [
  { id: 1, keyword: "bakery amsterdam", base: 1, volume: 2400 },
  { id: 2, keyword: "sourdough bread", base: 3, volume: 1900 },
  { id: 3, keyword: "best croissant", base: 9, volume: 880 },
  { id: 4, keyword: "gluten free cake", base: 40, volume: 320 },
  { id: 5, keyword: "wedding cakes", base: null, volume: 5400 },
] as const;

/** A keyword's rank on a day: its base plus the day of the month modulo 3 (null when never ranked). */
export function accurankerRank(keywordId: number, day: string): number | null {
  const keyword = ACCURANKER_KEYWORDS.find((entry) => entry.id === keywordId);
  if (!keyword || keyword.base === null) return null;
  return keyword.base + (Number(day.slice(8, 10)) % 3);
}

export interface FakeAccuRanker {
  clientId: string;
  clientSecret: string;
  deny: boolean;
  /** Access or refresh tokens the user revoked. */
  revoked: Set<string>;
  failNext: FakeFault[];
  /** The account's domains (ACCURANKER_DOMAINS at start; a test may re-point one at a host it tracks). */
  domains: { id: number; domain: string; display_name: string }[];
  /** The most requests ever in flight at once. */
  maxInFlight: number;
  /**
   * When set, a request waits (at most `gatherMs`) until this many are in flight before it is answered,
   * so a test of the client's parallelism does not depend on how fast the machine answers: requests sent
   * together overlap, requests sent one after another do not.
   */
  gather: number;
  gatherMs: number;
  refreshes: number;
  expireAccessTokens(): void;
}

const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** AccuRanker's `fields` projection: `a,b.c` keeps `a` and `b.c`; nested lists are projected per element. */
export function project(value: unknown, fields: string[]): unknown {
  if (Array.isArray(value)) return value.map((entry) => project(entry, fields));
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  const groups = new Map<string, string[]>();
  for (const field of fields) {
    const [head = "", ...rest] = field.split(".");
    groups.set(head, [...(groups.get(head) ?? []), ...(rest.length > 0 ? [rest.join(".")] : [])]);
  }
  for (const [head, nested] of groups) {
    if (!(head in (value as Record<string, unknown>))) continue;
    const inner = (value as Record<string, unknown>)[head];
    out[head] = nested.length > 0 ? project(inner, nested) : inner;
  }
  return out;
}

export function accurankerFake(): FakePart<FakeAccuRanker> {
  const codes = new Map<string, string>();
  const access = new Map<string, { expiresAt: number; refresh: string }>();
  const refresh = new Set<string>();
  let counter = 0;
  let inFlight = 0;
  const state: FakeAccuRanker = {
    clientId: "accuranker-fake-client",
    clientSecret: "accuranker-fake-secret",
    deny: false,
    revoked: new Set(),
    failNext: [],
    domains: ACCURANKER_DOMAINS.map((domain) => ({ ...domain })),
    maxInFlight: 0,
    gather: 0,
    gatherMs: 500,
    refreshes: 0,
    expireAccessTokens() {
      for (const entry of access.values()) entry.expiresAt = 0;
    },
  };
  const issue = (refreshToken?: string) => {
    counter += 1;
    const token = `acc-access-${counter}`;
    const next = refreshToken ?? `acc-refresh-${counter}`;
    access.set(token, { expiresAt: Date.now() + 36_000_000, refresh: next });
    refresh.add(next);
    return { access_token: token, token_type: "Bearer", expires_in: 36000, refresh_token: next, scope: "read" };
  };
  const fieldsOf = (request: FastifyRequest) =>
    String((request.query as Record<string, string | undefined>).fields ?? "")
      .split(",")
      .map((field) => field.trim())
      .filter(Boolean);
  const send = (request: FastifyRequest, rows: unknown[]) => {
    const fields = fieldsOf(request);
    // No fields, nothing: AccuRanker answers an empty object per row.
    return fields.length === 0 ? rows.map(() => ({})) : project(rows, fields);
  };
  const detail = (reply: FastifyReply, status: number, text: string, headers: Record<string, string> = {}) =>
    reply.code(status).headers(headers).send({ detail: text });

  return {
    state,
    env: (origin) => ({
      ACCURANKER_CLIENT_ID: state.clientId,
      ACCURANKER_CLIENT_SECRET: state.clientSecret,
      ACCURANKER_URL: `${origin}${ACCURANKER_PREFIX}`,
    }),
    register(app) {
      app.register(
        async (scope) => {
          scope.get("/oauth/authorize/", async (request, reply) => {
            const query = request.query as Record<string, string | undefined>;
            if (query.client_id !== state.clientId || query.response_type !== "code") {
              return reply.code(400).type("text/html").send("<p>Invalid client_id parameter value.</p>");
            }
            const redirect = new URL(query.redirect_uri ?? "");
            redirect.searchParams.set("state", query.state ?? "");
            if (state.deny) {
              state.deny = false;
              redirect.searchParams.set("error", "access_denied");
            } else {
              const code = `acc-code-${++counter}`;
              codes.set(code, query.redirect_uri ?? "");
              redirect.searchParams.set("code", code);
            }
            return reply.redirect(redirect.toString(), 302);
          });

          scope.post("/oauth/token/", async (request, reply) => {
            const form = (request.body ?? {}) as Record<string, string | undefined>;
            if (form.client_id !== state.clientId || form.client_secret !== state.clientSecret) {
              return reply.code(401).send({ error: "invalid_client" });
            }
            if (form.grant_type === "authorization_code") {
              const redirect = form.code ? codes.get(form.code) : undefined;
              if (form.code) codes.delete(form.code);
              if (redirect === undefined || redirect !== form.redirect_uri) {
                return reply.code(400).send({ error: "invalid_grant" });
              }
              return issue();
            }
            if (form.grant_type === "refresh_token") {
              const token = form.refresh_token ?? "";
              if (!refresh.has(token) || state.revoked.has(token))
                return reply.code(400).send({ error: "invalid_grant" });
              state.refreshes += 1;
              refresh.delete(token);
              return issue();
            }
            return reply.code(400).send({ error: "unsupported_grant_type" });
          });

          scope.register(
            async (api) => {
              api.addHook("onRequest", async () => {
                inFlight += 1;
                state.maxInFlight = Math.max(state.maxInFlight, inFlight);
              });
              api.addHook("onResponse", async () => {
                inFlight -= 1;
              });
              api.addHook("preHandler", async (request, reply) => {
                if (inFlight > 4) {
                  return detail(reply, 429, "Request was throttled: too many simultaneous connections.", {
                    "retry-after": "1",
                  });
                }
                const token = /^(?:Bearer|Token) (.+)$/.exec(String(request.headers.authorization ?? ""))?.[1] ?? "";
                if (!token) return detail(reply, 401, "Authentication credentials were not provided.");
                const entry = access.get(token);
                if (
                  !entry ||
                  entry.expiresAt <= Date.now() ||
                  state.revoked.has(token) ||
                  state.revoked.has(entry.refresh)
                ) {
                  return detail(reply, 401, "Invalid token.");
                }
                const fault = answerFault(state.failNext, reply, pathOf(request));
                if (fault) return fault;
                if (state.gather > 0) {
                  const until = Date.now() + state.gatherMs;
                  while (inFlight < state.gather && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
                }
              });
              api.get("/accounts/", async (request) => send(request, ACCURANKER_ACCOUNTS));
              api.get("/domains/", async (request) => send(request, state.domains));
              api.get<{ Params: { id: string } }>("/domains/:id/keywords/", async (request, reply) => {
                const query = request.query as Record<string, string | undefined>;
                if (!state.domains.some((domain) => String(domain.id) === request.params.id)) {
                  return detail(reply, 404, "Not found.");
                }
                const from = query.period_from ?? "";
                const to = query.period_to ?? "";
                if ((from && !DAY.test(from)) || (to && !DAY.test(to))) {
                  return detail(reply, 400, "period_from and period_to must be dates (YYYY-MM-DD).");
                }
                const start = from ? dayNumber(from) : dayNumber(to || "2026-11-20");
                const end = to ? dayNumber(to) : start;
                if (end < start) return detail(reply, 400, "period_to must not be before period_from.");
                if (end - start + 1 > 100) return detail(reply, 400, "The period can be at most 100 days.");
                // A short pause, so simultaneous requests overlap as they would at AccuRanker.
                await new Promise((resolve) => setTimeout(resolve, 20));
                const keywords = request.params.id === "9001" ? ACCURANKER_KEYWORDS : [];
                const rows = keywords.map((keyword) => ({
                  id: keyword.id,
                  keyword: keyword.keyword,
                  search_engine: "google",
                  search_volume: { search_volume: keyword.volume, avg_cost_per_click: 1.2 },
                  ranks: Array.from({ length: end - start + 1 }, (_, index) => {
                    const day = dayOf(start + index);
                    return { rank: accurankerRank(keyword.id, day), created_at: `${day}T04:12:00Z`, url: "" };
                  }),
                }));
                return send(request, rows);
              });
            },
            { prefix: "/api/v4" },
          );
        },
        { prefix: ACCURANKER_PREFIX },
      );
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "accuranker",
  build: () => accurankerFake(),
};
