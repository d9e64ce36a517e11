/**
 * TikTok API for Business v1.3 as a part of the fakes app (./app.ts): the advertiser consent screen
 * (`/portal/auth`), the token and revoke endpoints, the user, the granted advertisers and their details,
 * and the synchronous integrated report. Shapes follow TikTok's docs as mirrored in
 * `api-evangelist/tiktok-ads` (errors/tiktok-ads-error-codes.yml, rate-limits/tiktok-ads-rate-limits.yml)
 * and docs/connectors.md (its TikTok section):
 * - every answer is HTTP 200 with the envelope `{code, message, request_id, data}`; failures carry a
 *   non-zero code and `data: {}`: 40104 without an `Access-Token`, 40105 for a wrong or revoked token,
 *   40002 for a wrong parameter (an unknown metric, a by-day range over 30 days), 40001 for an advertiser
 *   the token was not granted, 40110 for a used auth code, 40101 for a wrong app secret;
 * - report rows are `{dimensions:{…}, metrics:{…}}` with every metric as a string, `stat_time_day` as
 *   "yyyy-mm-dd 00:00:00", and `page_info {page, page_size, total_number, total_page}`.
 * The consent screen's refusal (`error=access_denied`) is assumed: TikTok documents only the success.
 */

import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeCall, FakeEntry, FakeFault, FakePart } from "../../../test/fakes/app";
import { answerFault, pathOf } from "../../../test/fakes/kit";

export interface FakeTikTok {
  appId: string;
  appSecret: string;
  /** The user refuses consent on the next authorisation. */
  deny: boolean;
  /** Tokens TikTok no longer accepts (revoked by the user, or through revoke_token). */
  revoked: Set<string>;
  /** Answers the next data calls with these first (TikTok's errors are HTTP 200 with a code). */
  failNext: FakeFault[];
  calls: FakeCall[];
  /** Rows per report page at most (small, so paging is exercised). */
  reportPageSize: number;
  /** Every token handed out, newest last. */
  tokens: string[];
  /** The consent screen also sends the code as `code` (TikTok does); false sends `auth_code` alone. */
  codeAlias: boolean;
}

/** The advertisers the user grants; the third is disabled. */
export const TIKTOK_ADVERTISERS = [
  { id: "7100000000000000001", name: "Acme Shop", currency: "EUR", timezone: "Europe/Paris", status: "STATUS_ENABLE" },
  {
    id: "7100000000000000002",
    name: "Acme Leads",
    currency: "USD",
    timezone: "America/New_York",
    status: "STATUS_ENABLE",
  },
  { id: "7100000000000000003", name: "Old Brand", currency: "USD", timezone: "UTC", status: "STATUS_DISABLE" },
] as const;
/** An advertiser that exists but was not granted to this app. */
export const TIKTOK_FOREIGN_ADVERTISER = "7100000000000000009";

export const TIKTOK_USER = { display_name: "Ada Ads", email: "ada@acme.test", core_user_id: "7099000000000000001" };

/** Campaigns, ad groups and ads of each advertiser: two campaigns, an ad group each, two ads per ad group. */
export function fakeTikTokAds(advertiser: string) {
  const base = advertiser.slice(-1);
  return [0, 1].flatMap((c) => {
    const campaignId = `18${base}00000000${c}`;
    const adgroupId = `17${base}00000000${c}`;
    return [0, 1].map((a) => ({
      campaignId,
      campaignName: c === 0 ? "Autumn Sale" : "Brand Awareness",
      adgroupId,
      adgroupName: c === 0 ? "Sale – Broad" : "Awareness – 18-34",
      adId: `16${base}0000000${c}${a}`,
      adName: `Video ${c * 2 + a + 1}`,
      index: c * 2 + a,
    }));
  });
}

export interface FakeTikTokUnit {
  advertiser: string;
  day: string;
  campaignId: string;
  campaignName: string;
  adgroupId: string;
  adgroupName: string;
  adId: string;
  adName: string;
  spendCents: number;
  impressions: number;
  clicks: number;
  conversion: number;
  video_play_actions: number;
  video_watched_6s: number;
  likes: number;
  comments: number;
  shares: number;
  follows: number;
}

const DAY_MS = 86_400_000;
const shift = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * One ad's delivery on each day of a range: numbers a test can sum. The 13th of every month has no
 * delivery (TikTok sends no row for it).
 */
export function fakeTikTokUnits(advertiser: string, start: string, end: string): FakeTikTokUnit[] {
  const units: FakeTikTokUnit[] = [];
  for (let day = start; day <= end; day = shift(day, 1)) {
    if (day.endsWith("-13")) continue;
    const n = Number(day.slice(8, 10)) + Number(day.slice(5, 7));
    for (const ad of fakeTikTokAds(advertiser)) {
      const a = ad.index;
      units.push({
        advertiser,
        day,
        ...ad,
        spendCents: 1500 + 25 * n + 100 * a,
        impressions: 1000 + 37 * n + 11 * a,
        clicks: 20 + (n % 7) + a,
        conversion: (n + a) % 4,
        video_play_actions: 300 + 3 * n,
        video_watched_6s: 100 + n + a,
        likes: 10 + (n % 5),
        comments: n % 3,
        shares: a,
        follows: n % 2,
      });
    }
  }
  return units;
}

/** The report's metrics: the additive ones, the attribute metrics, and ratios TikTok also offers. */
const ADDITIVE = [
  "spend",
  "impressions",
  "clicks",
  "conversion",
  "video_play_actions",
  "video_watched_6s",
  "likes",
  "comments",
  "shares",
  "follows",
] as const;
const KNOWN_METRICS = new Set<string>([
  ...ADDITIVE,
  "ctr",
  "cpc",
  "cpm",
  "reach",
  "campaign_name",
  "adgroup_name",
  "ad_name",
]);
/** Which id dimension each data level may group by. */
const LEVEL_IDS: Record<string, string[]> = {
  AUCTION_ADVERTISER: ["advertiser_id"],
  AUCTION_CAMPAIGN: ["advertiser_id", "campaign_id"],
  AUCTION_ADGROUP: ["advertiser_id", "campaign_id", "adgroup_id"],
  AUCTION_AD: ["advertiser_id", "campaign_id", "adgroup_id", "ad_id"],
};

export function tiktokFake(): FakePart<FakeTikTok> {
  const codes = new Map<string, string>();
  const live = new Set<string>();
  let counter = 0;
  const state: FakeTikTok = {
    appId: "7300000000000000001",
    appSecret: "fake-tiktok-app-secret",
    deny: false,
    revoked: new Set(),
    failNext: [],
    calls: [],
    reportPageSize: 20,
    tokens: [],
    codeAlias: true,
  };

  const requestId = () => `2026112610000000FAKE${String(++counter).padStart(6, "0")}`;
  const ok = (data: unknown) => ({ code: 0, message: "OK", request_id: requestId(), data });
  const fail = (code: number, message: string) => ({ code, message, request_id: requestId(), data: {} });

  /** The token of a request, or TikTok's refusal (HTTP 200 with 40104/40105). */
  const requireToken = (request: FastifyRequest): { token: string } | { refusal: ReturnType<typeof fail> } => {
    const token = request.headers["access-token"];
    if (typeof token !== "string" || token === "") {
      return {
        refusal: fail(40104, "Access token is null, you should set it in http header with key Access-Token."),
      };
    }
    if (!live.has(token) || state.revoked.has(token)) {
      return { refusal: fail(40105, "Access token is incorrect or has been revoked.") };
    }
    return { token };
  };

  const fault = (request: FastifyRequest, reply: FastifyReply) => {
    return answerFault(state.failNext, reply, pathOf(request));
  };

  /** A JSON array parameter (`["a","b"]`), or null when it is not one. */
  const list = (value: unknown): string[] | null => {
    if (typeof value !== "string") return null;
    try {
      const parsed: unknown = JSON.parse(value);
      return Array.isArray(parsed) ? parsed.map(String) : null;
    } catch {
      return null;
    }
  };

  return {
    state,
    env: (origin) => ({
      TIKTOK_APP_ID: state.appId,
      TIKTOK_APP_SECRET: state.appSecret,
      TIKTOK_API_URL: origin,
      TIKTOK_AUTH_URL: `${origin}/portal/auth`,
    }),
    register(app, shared) {
      state.calls = shared.calls;

      app.get("/portal/auth", async (request, reply) => {
        const query = request.query as Record<string, string | undefined>;
        if (query.app_id !== state.appId) return reply.code(400).type("text/html").send("<p>Invalid app_id</p>");
        let redirect: URL;
        try {
          redirect = new URL(query.redirect_uri ?? "");
        } catch {
          return reply.code(400).type("text/html").send("<p>Invalid redirect_uri</p>");
        }
        redirect.searchParams.set("state", query.state ?? "");
        if (state.deny) {
          state.deny = false;
          redirect.searchParams.set("error", "access_denied");
        } else {
          const code = `ttfakeauthcode${++counter}`;
          codes.set(code, query.redirect_uri ?? "");
          // TikTok sends the code under both names; `auth_code` is the documented one.
          redirect.searchParams.set("auth_code", code);
          if (state.codeAlias) redirect.searchParams.set("code", code);
        }
        return reply.redirect(redirect.toString(), 302);
      });

      app.post("/open_api/v1.3/oauth2/access_token/", async (request) => {
        const body = (request.body ?? {}) as Record<string, unknown>;
        if (body.app_id !== state.appId || body.secret !== state.appSecret) {
          return fail(40101, "Secret and app ID do not match.");
        }
        const code = String(body.auth_code ?? "");
        if (!codes.has(code)) {
          return fail(40110, "The auth_code is canceled. Please re-authorize and try again with a new auth_code.");
        }
        codes.delete(code);
        const token = `ttfaketoken${++counter}${"x".repeat(8)}`;
        live.add(token);
        state.tokens.push(token);
        return ok({
          access_token: token,
          advertiser_ids: TIKTOK_ADVERTISERS.map((advertiser) => advertiser.id),
          scope: [4, 5, 6],
        });
      });

      app.post("/open_api/v1.3/oauth2/revoke_token/", async (request) => {
        const body = (request.body ?? {}) as Record<string, unknown>;
        if (body.app_id !== state.appId || body.secret !== state.appSecret) {
          return fail(40101, "Secret and app ID do not match.");
        }
        const token = String(body.access_token ?? "");
        if (!live.has(token) || state.revoked.has(token))
          return fail(40105, "Access token is incorrect or has been revoked.");
        state.revoked.add(token);
        return ok({});
      });

      app.get("/open_api/v1.3/user/info/", async (request) => {
        const auth = requireToken(request);
        if ("refusal" in auth) return auth.refusal;
        return ok({ ...TIKTOK_USER, avatar_url: null, create_time: 1_700_000_000 });
      });

      app.get("/open_api/v1.3/oauth2/advertiser/get/", async (request) => {
        const query = request.query as Record<string, string | undefined>;
        const auth = requireToken(request);
        if ("refusal" in auth) return auth.refusal;
        if (query.app_id !== state.appId || query.secret !== state.appSecret) {
          return fail(40101, "Secret and app ID do not match.");
        }
        return ok({
          list: TIKTOK_ADVERTISERS.map((advertiser) => ({
            advertiser_id: advertiser.id,
            advertiser_name: advertiser.name,
          })),
        });
      });

      app.get("/open_api/v1.3/advertiser/info/", async (request, reply) => {
        const faulted = fault(request, reply);
        if (faulted) return faulted;
        const auth = requireToken(request);
        if ("refusal" in auth) return auth.refusal;
        const ids = list((request.query as Record<string, unknown>).advertiser_ids);
        if (!ids || ids.length === 0) return fail(40002, "advertiser_ids: Missing data for required field.");
        if (ids.length > 100) return fail(40002, "advertiser_ids: Length must be between 1 and 100.");
        const foreign = ids.find((id) => !TIKTOK_ADVERTISERS.some((advertiser) => advertiser.id === id));
        if (foreign) return fail(40001, `No permission to operate advertiser ${foreign}.`);
        return ok({
          list: TIKTOK_ADVERTISERS.filter((advertiser) => ids.includes(advertiser.id)).map((advertiser) => ({
            advertiser_id: advertiser.id,
            name: advertiser.name,
            currency: advertiser.currency,
            timezone: advertiser.timezone,
            status: advertiser.status,
          })),
        });
      });

      app.get("/open_api/v1.3/report/integrated/get/", async (request, reply) => {
        const faulted = fault(request, reply);
        if (faulted) return faulted;
        const auth = requireToken(request);
        if ("refusal" in auth) return auth.refusal;
        const query = request.query as Record<string, string | undefined>;
        const advertiser = query.advertiser_id ?? "";
        if (!advertiser) return fail(40002, "advertiser_id: Missing data for required field.");
        if (!TIKTOK_ADVERTISERS.some((entry) => entry.id === advertiser)) {
          return fail(40001, `No permission to operate advertiser ${advertiser}.`);
        }
        if (query.report_type !== "BASIC") return fail(40002, "report_type: Must be one of: BASIC, AUDIENCE, …");
        const ids = LEVEL_IDS[query.data_level ?? ""];
        if (!ids)
          return fail(
            40002,
            "data_level: Must be one of: AUCTION_ADVERTISER, AUCTION_CAMPAIGN, AUCTION_ADGROUP, AUCTION_AD.",
          );
        const dimensions = list(query.dimensions);
        const metrics = list(query.metrics);
        if (!dimensions || dimensions.length === 0) return fail(40002, "dimensions: Not a valid list.");
        if (!metrics) return fail(40002, "metrics: Not a valid list.");
        const unknownMetric = metrics.find((metric) => !KNOWN_METRICS.has(metric));
        if (unknownMetric) return fail(40002, `Invalid metric fields: ['${unknownMetric}'].`);
        const unknownDimension = dimensions.find((entry) => entry !== "stat_time_day" && !ids.includes(entry));
        if (unknownDimension) {
          return fail(40002, `Invalid dimension ${unknownDimension} for data_level ${query.data_level}.`);
        }
        const start = query.start_date ?? "";
        const end = query.end_date ?? "";
        if (!/^\d{4}-\d{2}-\d{2}$/.test(start) || !/^\d{4}-\d{2}-\d{2}$/.test(end) || start > end) {
          return fail(40002, "start_date and end_date must be dates (YYYY-MM-DD), the start not after the end.");
        }
        const span = (Date.parse(end) - Date.parse(start)) / DAY_MS + 1;
        if (dimensions.includes("stat_time_day") && span > 30) {
          return fail(
            40002,
            "The time span between start_date and end_date cannot exceed 30 days when grouping by stat_time_day.",
          );
        }
        if (span > 365) return fail(40002, "The time span between start_date and end_date cannot exceed 365 days.");
        const pageSize = Number(query.page_size ?? 10);
        if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
          return fail(40002, "page_size: Must be between 1 and 1000.");
        }
        const page = Math.max(1, Number(query.page ?? 1) || 1);

        // Units folded into one row per dimension values, in TikTok's string form.
        const rows = new Map<string, { dimensions: Record<string, string>; units: FakeTikTokUnit[] }>();
        for (const unit of fakeTikTokUnits(advertiser, start, end)) {
          const values: Record<string, string> = {};
          for (const dimension of dimensions) {
            if (dimension === "stat_time_day") values[dimension] = `${unit.day} 00:00:00`;
            else if (dimension === "advertiser_id") values[dimension] = advertiser;
            else if (dimension === "campaign_id") values[dimension] = unit.campaignId;
            else if (dimension === "adgroup_id") values[dimension] = unit.adgroupId;
            else if (dimension === "ad_id") values[dimension] = unit.adId;
          }
          const key = JSON.stringify(values);
          const row = rows.get(key) ?? { dimensions: values, units: [] };
          row.units.push(unit);
          rows.set(key, row);
        }
        const all = [...rows.values()].map((row) => {
          const first = row.units[0] as FakeTikTokUnit;
          const sum = (pick: (unit: FakeTikTokUnit) => number) =>
            row.units.reduce((total, unit) => total + pick(unit), 0);
          const out: Record<string, string> = {};
          for (const metric of metrics) {
            if (metric === "spend") out.spend = (sum((unit) => unit.spendCents) / 100).toFixed(2);
            else if (metric === "campaign_name") out.campaign_name = first.campaignName;
            else if (metric === "adgroup_name") out.adgroup_name = first.adgroupName;
            else if (metric === "ad_name") out.ad_name = first.adName;
            else if ((ADDITIVE as readonly string[]).includes(metric)) {
              out[metric] = String(sum((unit) => unit[metric as Exclude<(typeof ADDITIVE)[number], "spend">]));
            } else out[metric] = "0.00";
          }
          return { dimensions: row.dimensions, metrics: out };
        });
        const size = Math.min(pageSize, state.reportPageSize);
        return ok({
          list: all.slice((page - 1) * size, page * size),
          page_info: { page, page_size: size, total_number: all.length, total_page: Math.ceil(all.length / size) },
        });
      });
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "tiktok",
  build: () => tiktokFake(),
};
