import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeDomainDay, FakeEntry } from "../../../test/fakes/app";
import { type FakeFault, type FakePart, sendFault } from "../../../test/fakes/app";
import { rankDay } from "../../../test/fakes/kit";

/**
 * SE Ranking's Project API as a part of the fakes app (./app.ts), in the shapes of SE Ranking's API
 * pages (seranking.com/api/project/…) and of public code calling `api4.seranking.com`
 * (docs/connectors.md):
 * - `GET /sites` → `[{id, title, name, …}]`;
 * - `GET /sites/{id}/search-engines` → `[{site_engine_id, search_engine_id, region_id, lang_code, business_name}]`;
 * - `GET /system/search-engines` → `[{id, name}]`;
 * - `GET /sites/{id}/positions?date_from=&date_to=&site_engine_id=` → `[{site_engine_id, keywords: [{id,
 *   name, volume, positions: [{date, pos, change}]}]}]`, a check per checked day, `pos` 0 when the site
 *   is not in the results;
 * - the key as `Authorization: Token <key>` (a Bearer header is refused with 401, as SE Ranking does);
 *   failures as an HTTP status with `{message}` (401 for a key it does not know, 404 for a project the
 *   key does not own, 400 for a malformed date). The exact wording is assumed (docs/connectors.md).
 * Served under `/seranking` on the fakes' origin: SE Ranking's paths (`/sites`) are too generic to
 * share the origin's root with the other providers.
 */

export const SERANKING_KEY = "0f1e2d3c4b5a69788796a5b4c3d2e1f0a1b2c3d4";
export const SERANKING_PREFIX = "/seranking";

export interface FakeSeRankingKeyword {
  id: string;
  name: string;
  volume: number;
  /** Never in the checked results (pos 0). */
  unranked?: boolean;
}

export interface FakeSeRanking {
  /** API keys SE Ranking knows. */
  keys: Set<string>;
  sites: {
    id: string;
    title: string;
    name: string;
    engines: { siteEngineId: string; searchEngineId: string; lang: string }[];
  }[];
  keywords: FakeSeRankingKeyword[];
  /** Scripted faults: without `pathIncludes` a fault takes the next positions call. */
  failNext: FakeFault[];
}

export const SERANKING_KEYWORDS: readonly FakeSeRankingKeyword[] = [
  { id: "901", name: "running shoes", volume: 74000 },
  { id: "902", name: "trail shoes", volume: 12100 },
  { id: "903", name: "acme shoes review", volume: 880 },
  { id: "904", name: "buy shoes online", volume: 40500, unranked: true },
];

/** Days SE Ranking did not check (a check every day but the 7th, 14th, 21st, 28th of a month). */
export const serankingChecked = (day: string) => Number(day.slice(8, 10)) % 7 !== 0;

/** The position of a keyword on a checked day for one site engine: deterministic, 1–60, 0 when unranked. */
export function serankingPosition(keywordId: string, day: string, siteEngineId: string): number {
  const keyword = SERANKING_KEYWORDS.find((entry) => entry.id === keywordId);
  if (!keyword || keyword.unranked) return 0;
  let hash = 0;
  for (const char of `${keywordId}|${day}|${siteEngineId}`) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return 1 + (hash % 60);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function days(from: string, to: string): string[] {
  const out: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000) {
    out.push(new Date(at).toISOString().slice(0, 10));
  }
  return out;
}

export function serankingFake(): FakePart<FakeSeRanking> {
  const state: FakeSeRanking = {
    keys: new Set([SERANKING_KEY]),
    sites: [
      {
        id: "1038110",
        title: "acme.com",
        name: "https://acme.com",
        engines: [
          { siteEngineId: "1157702", searchEngineId: "200", lang: "en" },
          { siteEngineId: "1157703", searchEngineId: "339", lang: "en" },
        ],
      },
      { id: "1038111", title: "acme-shoes.de", name: "https://acme-shoes.de", engines: [] },
    ],
    keywords: [...SERANKING_KEYWORDS],
    failNext: [],
  };
  return {
    state,
    env: (origin) => ({ SERANKING_API_URL: `${origin}${SERANKING_PREFIX}` }),
    register(app) {
      const refuse = (reply: FastifyReply, status: number, message: string) => reply.code(status).send({ message });
      const guard = async (request: FastifyRequest, reply: FastifyReply) => {
        const header = String(request.headers.authorization ?? "");
        const key = /^Token (.+)$/.exec(header)?.[1];
        if (!header) return refuse(reply, 401, "Authorization header is missing");
        if (!key || !state.keys.has(key)) return refuse(reply, 401, "Invalid token");
        const index = state.failNext.findIndex((fault) => request.url.includes(fault.pathIncludes ?? "/positions"));
        const [fault] = index >= 0 ? state.failNext.splice(index, 1) : [];
        if (fault) return sendFault(reply, fault);
      };
      const site = (id: string) => state.sites.find((entry) => entry.id === id);
      app.register(
        async (scope) => {
          scope.addHook("preHandler", guard);
          scope.get("/sites", async () =>
            state.sites.map((entry) => ({
              id: Number(entry.id),
              title: entry.title,
              name: entry.name,
              group_id: 1,
              is_active: 1,
              keyword_count: state.keywords.length,
            })),
          );
          scope.get("/system/search-engines", async () => [
            { id: 200, name: "google.com" },
            { id: 339, name: "bing.com" },
          ]);
          scope.get<{ Params: { id: string } }>("/sites/:id/search-engines", async (request, reply) => {
            const found = site(request.params.id);
            if (!found) return refuse(reply, 404, "Site not found");
            return found.engines.map((engine) => ({
              site_engine_id: Number(engine.siteEngineId),
              search_engine_id: Number(engine.searchEngineId),
              region_id: null,
              lang_code: engine.lang,
              business_name: null,
            }));
          });
          scope.get<{ Params: { id: string }; Querystring: Record<string, string> }>(
            "/sites/:id/positions",
            async (request, reply) => {
              const found = site(request.params.id);
              if (!found) return refuse(reply, 404, "Site not found");
              const { date_from: from, date_to: to, site_engine_id: engineId } = request.query;
              if (from !== undefined && !DAY.test(from)) return refuse(reply, 400, "Invalid date_from");
              if (to !== undefined && !DAY.test(to)) return refuse(reply, 400, "Invalid date_to");
              const engines = found.engines.filter((engine) => !engineId || engine.siteEngineId === engineId);
              if (engineId && engines.length === 0) return refuse(reply, 400, "Invalid site_engine_id");
              const checked = days(from ?? to ?? "2026-01-01", to ?? from ?? "2026-01-01").filter(serankingChecked);
              return engines.map((engine) => ({
                site_engine_id: Number(engine.siteEngineId),
                keywords: state.keywords.map((keyword) => ({
                  id: Number(keyword.id),
                  name: keyword.name,
                  volume: keyword.volume,
                  positions: checked.map((day, index) => {
                    const pos = serankingPosition(keyword.id, day, engine.siteEngineId);
                    const before =
                      index > 0 ? serankingPosition(keyword.id, checked[index - 1] ?? day, engine.siteEngineId) : pos;
                    return { date: day, pos, change: before - pos, price: 0, is_map: 0, paid_position: 0 };
                  }),
                })),
              }));
            },
          );
        },
        { prefix: SERANKING_PREFIX },
      );
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "seranking",
  build: () => serankingFake(),
};

/** The login the sources form would send for this fake (the live check's test connects with it). */
export const fakeLogin = (_origin: string) => ({ account: "Acme SEO", token: SERANKING_KEY });

/**
 * Mission Control's day of a domain at this fake: project acme.com (1038110) on its first search engine
 * (1157702), on the days SE Ranking checked; acme-shoes.de's project tracks no search engine.
 */
export const fakeDomainDay: FakeDomainDay = (domain, day) =>
  domain === "acme.com" && serankingChecked(day)
    ? rankDay(SERANKING_KEYWORDS.map((keyword) => serankingPosition(keyword.id, day, "1157702")))
    : null;
