import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeEntry } from "../../../test/fakes/app";
import { type FakeFault, type FakePart, sendFault } from "../../../test/fakes/app";

/**
 * Rank Ranger's Reporting API v2 as a part of the fakes app (./app.ts): one dispatcher,
 * `GET /api/v2/?<method>&key=…&output=json`, the method a bare query flag. What is verified of these
 * shapes and what is assumed is listed in src/connectors/rankranger/shapes.ts; in short:
 * - `package_campaigns` → `{result: [{campaign_id, campaign_name, campaign_domain, competitors,
 *   search_engines: [{se_id, se_name}]}]}` (assumed);
 * - `rank&start_date=&end_date=&campaign_id=&domain=[&se_id=]` → `{result: [{date: "MM/DD/YYYY", url, lp,
 *   keyword, se, se_id, se_name, rank}]}`, a row per keyword, engine and checked day, `rank` "" when the
 *   domain is not in the results;
 * - `get_visibility_trend&…&se_id=` → `{result: [{url, se, se_id, se_name, date, visibility_score}]}`;
 * - failures as HTTP 200 with `{error: {code, message}}` (assumed): 101 for a key it does not know, 201
 *   for a campaign not in the key's account, 202/203 for a domain/engine the campaign does not track, 301
 *   for a missing or malformed parameter. Without `output=json` it answers XML, as Rank Ranger does.
 * Served under `/rankranger` on the fakes' origin (`/api/v2/` is too generic to share the root).
 */

export const RANKRANGER_KEY = "rr5b1f0c9e7d2a4c68a3e9f1b07d6c2e54";
export const RANKRANGER_PREFIX = "/rankranger";

export interface FakeRankRangerCampaign {
  id: string;
  name: string;
  domain: string;
  competitors: string[];
  engines: { id: string; name: string }[];
}

export interface FakeRankRangerKeyword {
  name: string;
  volume: number;
  /** Never in the checked results. */
  unranked?: boolean;
}

export interface FakeRankRanger {
  /** API keys Rank Ranger knows. */
  keys: Set<string>;
  campaigns: FakeRankRangerCampaign[];
  keywords: FakeRankRangerKeyword[];
  /** Scripted faults: without `pathIncludes` a fault takes the next `rank` or `get_visibility_trend` call. */
  failNext: FakeFault[];
}

export const RANKRANGER_KEYWORDS: readonly FakeRankRangerKeyword[] = [
  { name: "running shoes", volume: 74000 },
  { name: "trail shoes", volume: 12100 },
  { name: "acme shoes review", volume: 880 },
  { name: "buy shoes online", volume: 40500, unranked: true },
];

export const RANKRANGER_CAMPAIGNS: readonly FakeRankRangerCampaign[] = [
  {
    id: "48213",
    name: "Acme",
    domain: "acme.com",
    competitors: ["rival.com"],
    engines: [
      { id: "64", name: "Google USA (English)" },
      { id: "433", name: "Google Mobile USA (English)" },
    ],
  },
  {
    id: "48214",
    name: "Acme Schuhe",
    domain: "acme-shoes.de",
    competitors: [],
    engines: [{ id: "78", name: "Google Germany" }],
  },
];

/** Days Rank Ranger did not check (every day but the 7th, 14th, 21st, 28th of a month). */
export const rankRangerChecked = (day: string) => Number(day.slice(8, 10)) % 7 !== 0;

function hash(text: string): number {
  let value = 0;
  for (const char of text) value = (value * 31 + char.charCodeAt(0)) >>> 0;
  return value;
}

/** A keyword's position on a checked day for one engine and domain: deterministic, 1–60, null when unranked. */
export function rankRangerPosition(keyword: string, day: string, engine: string, domain: string): number | null {
  const found = RANKRANGER_KEYWORDS.find((entry) => entry.name === keyword);
  if (!found || found.unranked) return null;
  return 1 + (hash(`${keyword}|${day}|${engine}|${domain}`) % 60);
}

/** A domain's visibility score on a checked day for one engine: 0–89.9, one decimal. */
export const rankRangerVisibility = (day: string, engine: string, domain: string) =>
  (hash(`visibility|${day}|${engine}|${domain}`) % 900) / 10;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const METHODS = ["package_campaigns", "rank", "get_visibility_trend", "rank_stats"] as const;
const us = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;

function days(from: string, to: string): string[] {
  const out: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000) {
    out.push(new Date(at).toISOString().slice(0, 10));
  }
  return out;
}

export function rankRangerFake(): FakePart<FakeRankRanger> {
  const state: FakeRankRanger = {
    keys: new Set([RANKRANGER_KEY]),
    campaigns: RANKRANGER_CAMPAIGNS.map((campaign) => ({ ...campaign })),
    keywords: [...RANKRANGER_KEYWORDS],
    failNext: [],
  };
  return {
    state,
    env: (origin) => ({ RANKRANGER_API_URL: `${origin}${RANKRANGER_PREFIX}` }),
    register(app) {
      const refuse = (reply: FastifyReply, code: number, message: string) =>
        reply.code(200).send({ error: { code, message } });

      /** The campaign, domain, engines and days a data method asks for, or a refusal already sent. */
      const scope = (query: Record<string, string>, reply: FastifyReply) => {
        if (!query.campaign_id) return refuse(reply, 301, "Missing parameter: campaign_id");
        const campaign = state.campaigns.find((entry) => entry.id === query.campaign_id);
        if (!campaign) return refuse(reply, 201, "Campaign not found");
        if (!query.domain) return refuse(reply, 301, "Missing parameter: domain");
        if (query.domain !== campaign.domain && !campaign.competitors.includes(query.domain)) {
          return refuse(reply, 202, "Domain is not tracked in this campaign");
        }
        const engines = campaign.engines.filter((engine) => !query.se_id || engine.id === query.se_id);
        if (engines.length === 0) return refuse(reply, 203, "Search engine is not tracked in this campaign");
        for (const name of ["start_date", "end_date"]) {
          const value = query[name];
          if (!value) return refuse(reply, 301, `Missing parameter: ${name}`);
          if (!DAY.test(value)) return refuse(reply, 301, `Invalid date format: ${name}`);
        }
        const from = query.start_date ?? "";
        const to = query.end_date ?? "";
        if (to < from) return refuse(reply, 301, "end_date is before start_date");
        return { domain: query.domain, engines, checked: days(from, to).filter(rankRangerChecked) };
      };

      app.get<{ Querystring: Record<string, string> }>(
        `${RANKRANGER_PREFIX}/api/v2/`,
        async (request: FastifyRequest<{ Querystring: Record<string, string> }>, reply) => {
          const query = request.query;
          const method = METHODS.find((name) => name in query);
          if (query.output !== "json") {
            return reply.type("text/xml").send('<?xml version="1.0"?><response><result/></response>');
          }
          const data = method !== undefined && method !== "package_campaigns";
          const index = state.failNext.findIndex((fault) =>
            fault.pathIncludes ? request.url.includes(fault.pathIncludes) : data,
          );
          const [fault] = index >= 0 ? state.failNext.splice(index, 1) : [];
          if (fault) return sendFault(reply, fault);
          if (!query.key || !state.keys.has(query.key)) return refuse(reply, 101, "Invalid API key");
          if (!method) return refuse(reply, 301, "Unknown API method");
          if (method === "package_campaigns") {
            return {
              result: state.campaigns.map((campaign) => ({
                campaign_id: Number(campaign.id),
                campaign_name: campaign.name,
                campaign_domain: campaign.domain,
                competitors: campaign.competitors,
                search_engines: campaign.engines.map((engine) => ({ se_id: Number(engine.id), se_name: engine.name })),
              })),
            };
          }
          if (method === "rank_stats") return refuse(reply, 301, "Not served by the fake: use rank");
          const found = scope(query, reply);
          if (!("checked" in found)) return found;
          const { domain, engines, checked } = found;
          if (method === "get_visibility_trend") {
            return {
              result: checked.flatMap((day) =>
                engines.map((engine) => ({
                  url: domain,
                  se: "google.com",
                  se_id: Number(engine.id),
                  se_name: engine.name,
                  date: us(day),
                  visibility_score: rankRangerVisibility(day, engine.id, domain),
                })),
              ),
            };
          }
          return {
            result: checked.flatMap((day) =>
              engines.flatMap((engine) =>
                state.keywords.map((keyword) => ({
                  date: us(day),
                  url: domain,
                  lp: `https://${domain}/${keyword.name.replaceAll(" ", "-")}`,
                  keyword: keyword.name,
                  se: "google.com",
                  se_id: Number(engine.id),
                  se_name: engine.name,
                  search_volume: keyword.volume,
                  rank: rankRangerPosition(keyword.name, day, engine.id, domain) ?? "",
                })),
              ),
            ),
          };
        },
      );
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "rankranger",
  build: () => rankRangerFake(),
};

/** The login the sources form would send for this fake (the live check's test connects with it). */
export const fakeLogin = (_origin: string) => ({ account: "Acme SEO", token: RANKRANGER_KEY });
