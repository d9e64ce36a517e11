import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeEntry } from "../../../test/fakes/app";
import { type FakeFault, type FakePart, sendFault } from "../../../test/fakes/app";

/**
 * Salesflare's API as a part of the fakes app (./app.ts), in the shapes of api.salesflare.com/docs and
 * its OpenAPI as mirrored in `api-evangelist/salesflare` (docs/connectors.md):
 * - `Authorization: Bearer <API key>`; a missing header is 401 "Missing authentication", an unknown key
 *   401 "Bad token" (hapi-auth-bearer-token's words);
 * - failures as hapi's Boom envelope `{statusCode, error, message}` (errors/salesflare-problem-types.yml,
 *   observed on api.salesflare.com); a query parameter the route does not declare, or of the wrong type,
 *   is 400 `"x" is not allowed` / `"pipeline" must be a number` (Joi validation);
 * - `GET /me` → the key's user with its team; `GET /pipelines` → pipelines with their stages (`fixed_stage`
 *   1 Won, 2 Lost); `GET /opportunities` with the filters of collections/salesflare-opportunities-api
 *   (`pipeline`, `close_after`, `close_before`, `limit`, `offset`, `order_by` …) → deals with `stage`,
 *   `owner`, `account` and `currency` expanded, `close_date` a time at midnight UTC;
 * - 429 without Retry-After when limiting (rate-limits/salesflare-rate-limits.yml).
 * Response bodies are not typed in Salesflare's spec: these shapes are assumed (docs/connectors.md).
 * Served under `/salesflare` on the fakes' origin: Salesflare's paths (`/me`, `/accounts`) are too
 * generic to share the origin's root with the other providers.
 */

export const SALESFLARE_KEY = "sf_live_7Hc2kq9Vx3LmP0aZ";
export const SALESFLARE_PREFIX = "/salesflare";

export interface FakeSalesflareDeal {
  id: number;
  name: string;
  value: number;
  currency: string;
  /** Absent: the stage's probability applies. */
  probability?: number;
  stage: number;
  owner: number | null;
  closeDate: string;
}

export interface FakeSalesflare {
  keys: Set<string>;
  deals: FakeSalesflareDeal[];
  /** Scripted faults: without `pathIncludes` a fault takes the next opportunities call. */
  failNext: FakeFault[];
}

export const SALESFLARE_PIPELINES = [
  {
    id: 1,
    name: "Sales",
    stages: [
      { id: 11, name: "Lead", order: 1, probability: 10, fixed_stage: 0 },
      { id: 12, name: "Proposal", order: 2, probability: 50, fixed_stage: 0 },
      { id: 13, name: "Won", order: 3, probability: 100, fixed_stage: 1 },
      { id: 14, name: "Lost", order: 4, probability: 0, fixed_stage: 2 },
    ],
  },
  {
    id: 2,
    name: "Partnerships",
    stages: [
      { id: 21, name: "Talks", order: 1, probability: 30, fixed_stage: 0 },
      { id: 22, name: "Won", order: 2, probability: 100, fixed_stage: 1 },
      { id: 23, name: "Lost", order: 3, probability: 0, fixed_stage: 2 },
    ],
  },
];
const USERS = [
  { id: 3, name: "Jane Doe", email: "jane@acme.example" },
  { id: 4, name: "Tom Lee", email: "tom@acme.example" },
];

export const SALESFLARE_DEALS: readonly FakeSalesflareDeal[] = [
  { id: 101, name: "Acme renewal", value: 12000, currency: "EUR", stage: 13, owner: 3, closeDate: "2026-10-02" },
  { id: 102, name: "Globex pilot", value: 8000, currency: "EUR", stage: 12, owner: 4, closeDate: "2026-10-05" },
  {
    id: 103,
    name: "Initech",
    value: 5000,
    currency: "EUR",
    probability: 20,
    stage: 11,
    owner: 3,
    closeDate: "2026-10-05",
  },
  { id: 104, name: "Umbrella", value: 3000, currency: "EUR", stage: 14, owner: 4, closeDate: "2026-10-06" },
  { id: 105, name: "Stark US", value: 9000, currency: "USD", stage: 13, owner: 3, closeDate: "2026-10-03" },
  { id: 106, name: "Wayne", value: 4000, currency: "EUR", stage: 13, owner: 4, closeDate: "2026-10-07" },
  { id: 107, name: "Hooli", value: 7000, currency: "EUR", stage: 12, owner: 3, closeDate: "2026-10-20" },
  { id: 201, name: "Reseller deal", value: 50000, currency: "EUR", stage: 22, owner: 3, closeDate: "2026-10-03" },
  // September: 150 small leads (more than one page of 100).
  ...Array.from({ length: 150 }, (_, index) => ({
    id: 1000 + index,
    name: `Lead ${index + 1}`,
    value: 100,
    currency: "EUR",
    stage: 11,
    owner: index % 2 === 0 ? 3 : 4,
    closeDate: `2026-09-${String(1 + (index % 30)).padStart(2, "0")}`,
  })),
];

/** The query parameters GET /opportunities declares, and which of them are numbers, dates or booleans. */
const NUMBERS = new Set([
  "id",
  "stage",
  "owner",
  "account",
  "pipeline",
  "limit",
  "offset",
  "min_value",
  "max_value",
  "tag",
  "hotness",
]);
const DATES = new Set(["close_after", "close_before", "creation_after", "creation_before"]);
const OTHERS = new Set([
  "search",
  "name",
  "status",
  "stage.name",
  "team_member",
  "owner_group",
  "assignee_group",
  "team_member_group",
  "assignee",
  "closed",
  "done",
  "tag.name",
  "order_by",
  "custom",
  "details",
  "export",
  "q",
]);

export function salesflareFake(): FakePart<FakeSalesflare> {
  const state: FakeSalesflare = { keys: new Set([SALESFLARE_KEY]), deals: [...SALESFLARE_DEALS], failNext: [] };
  const boom = (reply: FastifyReply, statusCode: number, error: string, message: string) =>
    reply.code(statusCode).send({ statusCode, error, message });
  const stageOf = (id: number) => {
    for (const pipeline of SALESFLARE_PIPELINES) {
      const stage = pipeline.stages.find((entry) => entry.id === id);
      if (stage) return { ...stage, pipeline: { id: pipeline.id, name: pipeline.name } };
    }
    return null;
  };
  return {
    state,
    env: (origin) => ({ SALESFLARE_API_URL: `${origin}${SALESFLARE_PREFIX}` }),
    register(app) {
      const guard = async (request: FastifyRequest, reply: FastifyReply) => {
        const header = String(request.headers.authorization ?? "");
        if (!header) return boom(reply, 401, "Unauthorized", "Missing authentication");
        const key = /^Bearer (.+)$/.exec(header)?.[1];
        if (!key || !state.keys.has(key)) return boom(reply, 401, "Unauthorized", "Bad token");
        const index = state.failNext.findIndex((fault) => request.url.includes(fault.pathIncludes ?? "/opportunities"));
        const [fault] = index >= 0 ? state.failNext.splice(index, 1) : [];
        if (fault) return sendFault(reply, fault);
      };
      app.register(
        async (scope) => {
          scope.addHook("preHandler", guard);
          scope.get("/me", async () => ({
            id: 3,
            name: "Jane Doe",
            email: "jane@acme.example",
            team: { id: 77, name: "Acme Agency" },
          }));
          scope.get("/pipelines", async () => SALESFLARE_PIPELINES);
          scope.get<{ Querystring: Record<string, string> }>("/opportunities", async (request, reply) => {
            const query = request.query;
            for (const [name, value] of Object.entries(query)) {
              if (!NUMBERS.has(name) && !DATES.has(name) && !OTHERS.has(name)) {
                return boom(reply, 400, "Bad Request", `"${name}" is not allowed`);
              }
              if (NUMBERS.has(name) && !/^\d+$/.test(value)) {
                return boom(reply, 400, "Bad Request", `"${name}" must be a number`);
              }
              if (DATES.has(name) && Number.isNaN(Date.parse(value))) {
                return boom(reply, 400, "Bad Request", `"${name}" must be a valid date`);
              }
            }
            const after = query.close_after ? Date.parse(query.close_after) : Number.NEGATIVE_INFINITY;
            const before = query.close_before ? Date.parse(query.close_before) : Number.POSITIVE_INFINITY;
            const matching = state.deals
              .filter((deal) => {
                const stage = stageOf(deal.stage);
                const closes = Date.parse(`${deal.closeDate}T00:00:00Z`);
                return (
                  (!query.pipeline || String(stage?.pipeline.id) === query.pipeline) &&
                  closes >= after &&
                  closes < before
                );
              })
              .sort((a, b) => a.closeDate.localeCompare(b.closeDate) || a.id - b.id);
            const offset = Number(query.offset ?? 0);
            const limit = Number(query.limit ?? 20);
            return matching.slice(offset, offset + limit).map((deal) => {
              const stage = stageOf(deal.stage);
              const owner = USERS.find((user) => user.id === deal.owner) ?? null;
              return {
                id: deal.id,
                name: deal.name,
                value: deal.value,
                currency: {
                  id: deal.currency === "EUR" ? 2 : 1,
                  iso: deal.currency,
                  html: deal.currency === "EUR" ? "€" : "$",
                },
                probability: deal.probability ?? null,
                stage,
                owner,
                account: { id: deal.id * 10, name: `${deal.name} Inc.` },
                close_date: `${deal.closeDate}T00:00:00.000Z`,
                closed: stage?.fixed_stage === 1,
                done: (stage?.fixed_stage ?? 0) > 0,
                creation_date: "2026-01-15T09:00:00.000Z",
              };
            });
          });
        },
        { prefix: SALESFLARE_PREFIX },
      );
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "salesflare",
  build: () => salesflareFake(),
};

/** The login the sources form would send for this fake (the live check's test connects with it). */
export const fakeLogin = (_origin: string) => ({ account: "my crm", token: SALESFLARE_KEY });
