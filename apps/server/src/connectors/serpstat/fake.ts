import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeEntry } from "../../../test/fakes/app";
import { type FakeFault, type FakePart, sendFault, takeFault } from "../../../test/fakes/app";

/**
 * Serpstat's API v4 as a part of the fakes app (./app.ts), answering in the shapes of the Serpstat API
 * documentation (https://serpstat.com/api/, mirrored in public repositories: "api.serpstat.com/v4"):
 * JSON-RPC 2.0 over `POST /v4/?token=…` with `{id, method, params}`; answers `{id, result}` where list
 * methods carry `result.data[]` and `result.summary_info{page, total, left_lines}`; failures
 * `{id, error: {code, message}}` with HTTP 200 (-32601 unknown method, -32602 invalid params, 32017
 * "Data not found" for a domain it has nothing on, charged a credit).
 * Methods: `SerpstatLimitsProcedure.getStats` (`{max_lines, used_lines, left_lines, user_info}`),
 * `SerpstatDatabaseProcedure.getDatabaseInfo` (`[{db_name, country_name, domain_name}]`),
 * `SerpstatDomainProcedure.getDomainsHistory` and `…getDomainKeywords` (a credit a row).
 * The token is checked as Serpstat does (the `token` query parameter); a missing or wrong one is refused
 * with an error naming the token. The wording of the token and credit errors is assumed, not quoted.
 */

export const FAKE_SERPSTAT_TOKEN = "fake-serpstat-token-0123456789";

const ENGINES = [
  { db_name: "g_us", country_name: "United States", domain_name: "google.com" },
  { db_name: "g_uk", country_name: "United Kingdom", domain_name: "google.co.uk" },
  { db_name: "g_de", country_name: "Germany", domain_name: "google.de" },
  { db_name: "g_ua", country_name: "Ukraine", domain_name: "google.com.ua" },
];

export interface FakeSerpstat {
  token: string;
  /** Credits (API lines) left; each returned row costs one. */
  credits: number;
  domains: Set<string>;
  /** Scripted answers for the next data call (`pathIncludes` matches the method and its JSON params). */
  failNext: FakeFault[];
}

/** History points: the 1st and 15th of every month from January 2024. */
export function fakeSerpstatHistory(se: string): Record<string, string | number>[] {
  const points: Record<string, string | number>[] = [];
  const now = new Date().toISOString().slice(0, 10);
  const boost = se === "g_us" ? 1 : 3;
  for (let index = 0; ; index += 1) {
    const month = Math.floor(index / 2);
    const day = `${2024 + Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, "0")}-${index % 2 === 0 ? "01" : "15"}`;
    if (day > now) break;
    points.push({
      date: day,
      visible: Number((0.5 + index * 0.01).toFixed(2)) * boost,
      keywords: (800 + index * 7) * boost,
      traff: (2500 + index * 31) * boost,
      new_keywords: 20 + (index % 9),
      out_keywords: 10 + (index % 5),
    });
  }
  return points;
}

export function fakeSerpstatKeywords(): Record<string, string | number>[] {
  return [
    {
      keyword: "acme anvils",
      position: 2,
      region_queries_count: 5400,
      cost: 1.2,
      traff: 900,
      url: "https://acme.com/",
    },
    { keyword: "anvil", position: 7, region_queries_count: 22000, cost: 0.8, traff: 640, url: "https://acme.com/a" },
    {
      keyword: "rocket skates",
      position: 4,
      region_queries_count: 1900,
      cost: 2.5,
      traff: 310,
      url: "https://acme.com/s",
    },
  ];
}

export function serpstatFake(): FakePart<FakeSerpstat> {
  const state: FakeSerpstat = {
    token: FAKE_SERPSTAT_TOKEN,
    credits: 100_000,
    domains: new Set(["acme.com"]),
    failNext: [],
  };
  return {
    state,
    env: (origin) => ({ SERPSTAT_API_URL: origin }),
    register(app) {
      app.post("/v4/", async (request: FastifyRequest, reply: FastifyReply) => {
        const query = request.query as Record<string, string | undefined>;
        const body = (request.body ?? {}) as { id?: unknown; method?: unknown; params?: Record<string, unknown> };
        const id = body.id ?? null;
        const fail = (code: number, message: string) => reply.code(200).send({ id, error: { code, message } });
        if (!query.token || query.token !== state.token) return fail(-32001, "Invalid token!");
        if (typeof body.method !== "string" || typeof body.params !== "object" || body.params === null) {
          return fail(-32600, "Invalid Request");
        }
        // A fault's `pathIncludes` is matched against the method and its parameters (one path serves all).
        const fault = body.method.includes("Domain")
          ? takeFault(state.failNext, `${body.method} ${JSON.stringify(body.params)}`)
          : null;
        if (fault) return sendFault(reply, fault);
        const params = body.params;
        if (body.method === "SerpstatLimitsProcedure.getStats") {
          return {
            id,
            result: {
              max_lines: 100_000,
              used_lines: 100_000 - state.credits,
              left_lines: state.credits,
              user_info: { user_id: 4242, login: "seo@acme.example" },
            },
          };
        }
        if (body.method === "SerpstatDatabaseProcedure.getDatabaseInfo") return { id, result: ENGINES };
        const isHistory = body.method === "SerpstatDomainProcedure.getDomainsHistory";
        if (!isHistory && body.method !== "SerpstatDomainProcedure.getDomainKeywords") {
          return fail(-32601, "Method not found");
        }
        if (typeof params.domain !== "string" || params.domain === "") return fail(-32602, "Invalid params: domain");
        if (!ENGINES.some((engine) => engine.db_name === params.se)) return fail(-32602, "Invalid params: se");
        const size = Number(params.size ?? 100);
        const page = Number(params.page ?? 1);
        if (!Number.isInteger(size) || size < 1 || size > 1000) return fail(-32602, "Invalid params: size");
        // A domain Serpstat knows nothing about: error 32017 "Data not found", and the request still costs
        // a credit (an empty answer is paid for).
        if (!state.domains.has(params.domain)) {
          if (state.credits < 1) return fail(-32000, "API credits limit exceeded");
          state.credits -= 1;
          return fail(32017, "Data not found");
        }
        let rows = isHistory ? fakeSerpstatHistory(params.se as string) : fakeSerpstatKeywords();
        const sort = (params.sort ?? {}) as Record<string, string>;
        if (isHistory && sort.date === "desc") rows = [...rows].reverse();
        if (!isHistory && sort.traff === "desc") rows = [...rows].sort((a, b) => Number(b.traff) - Number(a.traff));
        const total = rows.length;
        rows = rows.slice((page - 1) * size, page * size);
        if (state.credits < rows.length) return fail(-32000, "API credits limit exceeded");
        state.credits -= rows.length;
        return { id, result: { data: rows, summary_info: { page, total, left_lines: state.credits } } };
      });
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "serpstat",
  build: () => serpstatFake(),
};

/** The login the sources form would send for this fake (the live check's test connects with it). */
export const fakeLogin = (_origin: string) => ({ account: "acme.com", token: FAKE_SERPSTAT_TOKEN });
