/**
 * Meta's Marketing API (Facebook Ads) as a part of the fakes app (./app.ts), beside the Meta part
 * (./meta.ts: Facebook Login, tokens, `/me`), whose state it takes: tokens are checked with its
 * `userOf`, its `failNext` scripts faults, its `revoked` kills tokens. Shapes follow:
 * - https://developers.facebook.com/documentation/ads-commerce/marketing-api/insights (the insights edge:
 *   level, fields, time_range, time_increment, breakdowns, filtering; numbers as strings, `actions` and
 *   `action_values` as `[{action_type, value}]`, cursor paging)
 * - https://developers.facebook.com/documentation/ads-commerce/marketing-api/insights/best-practices
 *   (asynchronous report runs: POST …/insights → report_run_id, GET {id} → async_status and
 *   async_percent_completion, GET {id}/insights; "Please reduce the amount of data" for large sync requests)
 * - https://developers.facebook.com/docs/marketing-api/reference/ad-account (`/me/adaccounts`,
 *   account_status, currency, timezone_name) and …/reference/ad-account/campaigns
 * - https://developers.facebook.com/docs/graph-api/guides/error-handling (the error object; #100 for a
 *   bad parameter, 190 for a dead token, 80000 for the ad account's throttle)
 *
 * It refuses what Meta refuses: no or a dead token (190), a wrong appsecret_proof, an ad account the
 * user cannot reach, an unknown field ("(#100) x is not valid for fields param"), a level that does not
 * exist, a time_range that is not JSON, an unknown breakdown or a combination Meta does not offer, a
 * filter on an unsupported field, and a synchronous request too large to answer at once (code 1).
 *
 * Report runs are read at `/{v}/{report_run_id}/insights`: this part's route at the Marketing API
 * version, or, when the fake serves both APIs at one version, a preHandler hook before Page insights'
 * route of the same pattern (../meta/fake.ts).
 */

import { createHmac } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeEntry, FakePart } from "../../../test/fakes/app";
import { answerFault, pathOf } from "../../../test/fakes/kit";
import { type FakeMeta, META_USER, metaError, tokenOf } from "../meta/fake";

/** The user's ad accounts (three, so a picker of two per page has two pages); the last one is closed. */
export const META_AD_ACCOUNTS = [
  { account_id: "101000000000001", name: "Acme Shop", currency: "EUR", timezone_name: "Europe/Berlin", status: 1 },
  { account_id: "101000000000002", name: "Acme Leads", currency: "USD", timezone_name: "America/New_York", status: 1 },
  { account_id: "101000000000003", name: "Old Brand", currency: "GBP", timezone_name: "Europe/London", status: 101 },
] as const;

/** Two campaigns per account, one ad set per campaign, two ads per ad set. */
export const META_ADS = META_AD_ACCOUNTS.flatMap((account, a) =>
  [0, 1].flatMap((c) =>
    [0, 1].map((d) => {
      const index = a * 4 + c * 2 + d;
      const campaignId = `1202000000${a}${c}`;
      const campaignName = c === 0 ? `${account.name} – Sale` : `${account.name} – Leads`;
      return {
        index,
        account: account.account_id,
        campaign: { id: campaignId, name: campaignName, status: c === 0 ? "ACTIVE" : "PAUSED" },
        adset: { id: `1203000000${a}${c}`, name: `${campaignName} – Broad` },
        ad: { id: `1204000000${a}${c}${d}`, name: `${campaignName} – Ad ${d === 0 ? "A" : "B"}` },
      };
    }),
  ),
);

/** Audience slices every delivery is split into; each breakdown names them its own way. */
const SLOT_VALUES: Record<string, readonly [string, string, string]> = {
  age: ["18-24", "25-34", "35-44"],
  gender: ["female", "male", "unknown"],
  country: ["DE", "FR", "US"],
  publisher_platform: ["facebook", "instagram", "audience_network"],
  // Two slices are phones: a device breakdown folds them into one row.
  device_platform: ["mobile", "desktop", "mobile"],
};
const BREAKDOWNS = Object.keys(SLOT_VALUES);
/** Breakdown combinations Meta offers among these (one alone, age with gender, platform with device). */
const COMBINATIONS = ["age,gender", "device_platform,publisher_platform"];

/** One ad's delivery to one audience slice on one day: the fake's smallest unit of data. */
export interface FakeAdsUnit {
  ad: (typeof META_ADS)[number];
  day: string;
  slot: number;
  impressions: number;
  clicks: number;
  /** Cents in the account's currency. */
  spendCents: number;
  linkClicks: number;
  purchases: number;
  purchaseValueCents: number;
  leads: number;
}

const DAY_MS = 86_400_000;
const daysFrom = (since: string, until: string): string[] => {
  const out: string[] = [];
  for (let at = Date.parse(`${since}T00:00:00Z`); at <= Date.parse(`${until}T00:00:00Z`); at += DAY_MS) {
    out.push(new Date(at).toISOString().slice(0, 10));
  }
  return out;
};

/**
 * Every unit of an account's ads over since..until (inclusive), optionally of one campaign. Nothing is
 * delivered on the 13th and the 26th of a month (Meta then sends no row for the day).
 */
export function fakeAdsUnits(account: string, since: string, until: string, campaign?: string): FakeAdsUnit[] {
  const ads = META_ADS.filter((entry) => entry.account === account && (!campaign || entry.campaign.id === campaign));
  return daysFrom(since, until).flatMap((day) => {
    const n = Number(day.slice(8, 10));
    if (n === 13 || n === 26) return [];
    return ads.flatMap((ad) =>
      [0, 1, 2].map((slot) => {
        const k = ad.index;
        const clicks = 6 + k + (n % 7) + 2 * slot;
        const purchases = (n + k + slot) % 4 === 0 ? 1 : 0;
        return {
          ad,
          day,
          slot,
          impressions: 300 + 40 * k + 10 * n + 50 * slot,
          clicks,
          spendCents: 150 + 25 * k + 7 * n + 30 * slot,
          linkClicks: clicks - 2,
          purchases,
          purchaseValueCents: purchases * (3990 + 100 * k),
          leads: ad.campaign.status === "PAUSED" && (n + slot) % 3 === 0 ? 1 : 0,
        };
      }),
    );
  });
}

/**
 * People reached by a group of units: fewer than its impressions, and fewer than the sum of its days'
 * or ads' reach (the same people come back), as Meta counts them.
 */
export function fakeAdsReach(units: readonly FakeAdsUnit[]): number {
  const impressions = units.reduce((sum, unit) => sum + unit.impressions, 0);
  const days = new Set(units.map((unit) => unit.day)).size;
  const ads = new Set(units.map((unit) => unit.ad.index)).size;
  return Math.round(impressions / (1.2 + 0.02 * Math.max(0, days - 1) + 0.05 * Math.max(0, ads - 1)));
}

/** Meta writes decimals without trailing zeros ("5339.5"). */
const decimal = (value: number, digits = 2) => String(Number(value.toFixed(digits)));

const LEVELS = ["account", "campaign", "adset", "ad"];
const ENTITY_FIELDS: Record<string, number> = {
  account_id: 0,
  account_name: 0,
  campaign_id: 1,
  campaign_name: 1,
  adset_id: 2,
  adset_name: 2,
  ad_id: 3,
  ad_name: 3,
};
const VALUE_FIELDS = [
  "account_currency",
  "date_start",
  "date_stop",
  "impressions",
  "clicks",
  "spend",
  "reach",
  "frequency",
  "ctr",
  "cpc",
  "cpm",
  "actions",
  "action_values",
];
const FIELDS = new Set([...Object.keys(ENTITY_FIELDS), ...VALUE_FIELDS]);
const FILTER_FIELDS: Record<string, (unit: FakeAdsUnit) => string> = {
  "campaign.id": (unit) => unit.ad.campaign.id,
  "adset.id": (unit) => unit.ad.adset.id,
  "ad.id": (unit) => unit.ad.ad.id,
};

/** A checked insights request. */
interface InsightsQuery {
  account: string;
  level: string;
  fields: string[];
  since: string;
  until: string;
  byDay: boolean;
  breakdowns: string[];
  filters: { field: string; values: string[] }[];
}

export interface FakeMetaAds {
  /** Ad accounts per `/me/adaccounts` answer at most (small, so the picker's paging is exercised). */
  accountsPageSize: number;
  /** Insights rows per answer at most (Meta's default page is 25). */
  insightsPageSize: number;
  /** Rows a synchronous insights request may produce; more answers code 1 ("reduce the amount of data"). */
  syncRowLimit: number;
  /** Polls of a report run before it says "Job Completed". */
  pollsToComplete: number;
  /** Report runs started, by id: their request and the polls seen. */
  runs: Map<string, { query: InsightsQuery; polls: number }>;
}

export function metaAdsFake(meta: FakeMeta): FakePart<FakeMetaAds> {
  const state: FakeMetaAds = {
    accountsPageSize: 2,
    insightsPageSize: 25,
    syncRowLimit: 400,
    pollsToComplete: 2,
    runs: new Map(),
  };
  let runCounter = 0;
  const cursor = (index: number) => Buffer.from(String(index)).toString("base64url");
  const offset = (after: string | undefined) => (after ? Number(Buffer.from(after, "base64url").toString()) || 0 : 0);

  /** The live user behind the request's token, or an error answer already sent (190 as Meta words it). */
  const requireUser = (request: FastifyRequest, reply: FastifyReply): string | null => {
    const token = tokenOf(request);
    const proof = (request.query as Record<string, string | undefined>).appsecret_proof;
    if (token && proof !== undefined && proof !== createHmac("sha256", meta.appSecret).update(token).digest("hex")) {
      void metaError(reply, 400, 100, "Invalid appsecret_proof provided in the API argument", {
        type: "GraphMethodException",
      });
      return null;
    }
    const user = token ? meta.userOf(token) : null;
    if (user) return user;
    if (!token) {
      void metaError(reply, 400, 190, "Invalid OAuth access token - Cannot parse access token");
    } else if (meta.revoked.has(token) || meta.revoked.has(META_USER.id)) {
      void metaError(
        reply,
        400,
        190,
        `Error validating access token: The user has not authorized application ${meta.appId}.`,
        { subcode: 458 },
      );
    } else {
      void metaError(reply, 400, 190, "Error validating access token: Session has expired.", { subcode: 463 });
    }
    return null;
  };

  const unknownObject = (reply: FastifyReply, id: string) =>
    metaError(
      reply,
      400,
      100,
      `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      { subcode: 33, type: "GraphMethodException" },
    );

  /** Reads and checks an insights request as Meta does; an error answer is sent when it is refused. */
  const readQuery = (
    account: string,
    params: Record<string, string | undefined>,
    reply: FastifyReply,
  ): InsightsQuery | null => {
    const refuse = (message: string) => {
      void metaError(reply, 400, 100, message);
      return null;
    };
    const level = params.level ?? "account";
    if (!LEVELS.includes(level)) return refuse("(#100) param level must be one of {ad, adset, campaign, account}");
    const fields = (params.fields ?? "spend,impressions").split(",").filter(Boolean);
    const invalid = fields.filter((field) => !FIELDS.has(field));
    if (invalid.length > 0) {
      return refuse(
        `(#100) ${invalid.join(", ")} ${invalid.length > 1 ? "are" : "is"} not valid for fields param. please check https://developers.facebook.com/docs/marketing-api/reference/ads-insights/ for all valid values`,
      );
    }
    let range: { since?: unknown; until?: unknown } | null = null;
    try {
      range = JSON.parse(params.time_range ?? "null");
    } catch {
      range = null;
    }
    const since = typeof range?.since === "string" ? range.since : "";
    const until = typeof range?.until === "string" ? range.until : "";
    if (!/^\d{4}-\d{2}-\d{2}$/.test(since) || !/^\d{4}-\d{2}-\d{2}$/.test(until)) {
      return refuse("(#100) param time_range must be non-empty.");
    }
    if (since > until) return refuse("(#100) time_range's since must be on or before its until");
    const increment = params.time_increment ?? "all_days";
    if (increment !== "1" && increment !== "all_days") {
      return refuse(`(#100) The fake serves time_increment=1 or all_days only (got ${increment})`);
    }
    const breakdowns = (params.breakdowns ?? "").split(",").filter(Boolean);
    const unknown = breakdowns.findIndex((breakdown) => !BREAKDOWNS.includes(breakdown));
    if (unknown >= 0) {
      return refuse(`(#100) breakdowns[${unknown}] must be one of the following values: ${BREAKDOWNS.join(", ")}`);
    }
    if (breakdowns.length > 1 && !COMBINATIONS.includes([...breakdowns].sort().join(","))) {
      return refuse(`(#100) Current combination of data breakdown columns (${breakdowns.join(", ")}) is invalid`);
    }
    let filters: { field: string; values: string[] }[] = [];
    if (params.filtering) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(params.filtering);
      } catch {
        parsed = null;
      }
      if (!Array.isArray(parsed)) return refuse("(#100) param filtering must be an array.");
      filters = [];
      for (const entry of parsed as { field?: unknown; operator?: unknown; value?: unknown }[]) {
        const field = String(entry?.field ?? "");
        const operator = String(entry?.operator ?? "");
        if (!FILTER_FIELDS[field] || !["IN", "EQUAL"].includes(operator)) {
          return refuse(`(#100) Filtering field '${field}' with operation '${operator}' is not supported`);
        }
        filters.push({ field, values: (Array.isArray(entry.value) ? entry.value : [entry.value]).map(String) });
      }
    }
    return { account, level, fields, since, until, byDay: increment === "1", breakdowns, filters };
  };

  /** The rows Meta would answer for a checked request: one per entity (at the level), day and breakdown value. */
  const rowsOf = (query: InsightsQuery): Record<string, unknown>[] => {
    const depth = LEVELS.indexOf(query.level);
    const account = META_AD_ACCOUNTS.find((entry) => entry.account_id === query.account);
    const units = fakeAdsUnits(query.account, query.since, query.until).filter((unit) =>
      query.filters.every((filter) => filter.values.includes(FILTER_FIELDS[filter.field]?.(unit) ?? "")),
    );
    const groups = new Map<string, FakeAdsUnit[]>();
    for (const unit of units) {
      const entity = [unit.ad.campaign.id, unit.ad.adset.id, unit.ad.ad.id].slice(0, depth).join("/");
      const slice = query.breakdowns.map((breakdown) => SLOT_VALUES[breakdown]?.[unit.slot]).join("/");
      const key = `${entity}|${query.byDay ? unit.day : ""}|${slice}`;
      groups.set(key, [...(groups.get(key) ?? []), unit]);
    }
    return [...groups.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, group]) => {
        const first = group[0] as FakeAdsUnit;
        const sum = (pick: (unit: FakeAdsUnit) => number) => group.reduce((total, unit) => total + pick(unit), 0);
        const impressions = sum((unit) => unit.impressions);
        const clicks = sum((unit) => unit.clicks);
        const spend = sum((unit) => unit.spendCents) / 100;
        const reach = fakeAdsReach(group);
        const purchases = sum((unit) => unit.purchases);
        const value = sum((unit) => unit.purchaseValueCents) / 100;
        const leads = sum((unit) => unit.leads);
        const actions = [
          { action_type: "link_click", value: String(sum((unit) => unit.linkClicks)) },
          { action_type: "post_engagement", value: String(clicks + 5 * group.length) },
          ...(purchases > 0
            ? [
                { action_type: "offsite_conversion.fb_pixel_purchase", value: String(purchases) },
                { action_type: "omni_purchase", value: String(purchases) },
              ]
            : []),
          ...(leads > 0 ? [{ action_type: "lead", value: String(leads) }] : []),
        ];
        const values = {
          account_id: query.account,
          account_name: account?.name,
          campaign_id: first.ad.campaign.id,
          campaign_name: first.ad.campaign.name,
          adset_id: first.ad.adset.id,
          adset_name: first.ad.adset.name,
          ad_id: first.ad.ad.id,
          ad_name: first.ad.ad.name,
          account_currency: account?.currency,
          impressions: String(impressions),
          clicks: String(clicks),
          spend: decimal(spend),
          reach: String(reach),
          frequency: decimal(impressions / reach, 6),
          ctr: decimal((clicks / impressions) * 100, 6),
          cpc: decimal(spend / clicks, 6),
          cpm: decimal((spend / impressions) * 1000, 6),
          actions,
          action_values:
            purchases > 0
              ? [
                  { action_type: "offsite_conversion.fb_pixel_purchase", value: decimal(value) },
                  { action_type: "omni_purchase", value: decimal(value) },
                ]
              : undefined,
        } as Record<string, unknown>;
        const row: Record<string, unknown> = {};
        for (const field of query.fields) {
          // An entity field finer than the level is left out, as Meta leaves it out.
          if (ENTITY_FIELDS[field] !== undefined && (ENTITY_FIELDS[field] ?? 0) > depth) continue;
          if (field !== "date_start" && field !== "date_stop" && values[field] !== undefined)
            row[field] = values[field];
        }
        for (const breakdown of query.breakdowns) row[breakdown] = SLOT_VALUES[breakdown]?.[first.slot];
        row.date_start = query.byDay ? first.day : query.since;
        row.date_stop = query.byDay ? first.day : query.until;
        return row;
      });
  };

  /** One page of rows, with Meta's cursors and a `next` address while more remain. */
  const page = (rows: Record<string, unknown>[], params: Record<string, string | undefined>, path: string) => {
    const limit = Math.min(Number(params.limit ?? 25) || 25, state.insightsPageSize);
    const start = offset(params.after);
    const data = rows.slice(start, start + limit);
    const more = start + limit < rows.length;
    const next = new URLSearchParams({ ...(params as Record<string, string>), after: cursor(start + data.length) });
    return {
      data,
      paging: {
        cursors: { before: cursor(start), after: cursor(start + data.length) },
        ...(more && { next: `${path}?${next}` }),
      },
    };
  };

  return {
    state,
    env: () => ({}),
    register(app, shared) {
      // The Marketing API version only (the Meta part serves the Graph API's): a call with another is a 404.
      const v = `/${meta.marketingVersion}`;
      const origin = () => shared.origin();
      const fault = (request: FastifyRequest, reply: FastifyReply) => {
        return answerFault(meta.failNext, reply, pathOf(request));
      };
      const reachable = (account: string) => META_AD_ACCOUNTS.some((entry) => entry.account_id === account);

      app.get(`${v}/me/adaccounts`, async (request, reply) => {
        if (!requireUser(request, reply)) return reply;
        const query = request.query as Record<string, string | undefined>;
        const fields = (query.fields ?? "id").split(",");
        const limit = Math.min(Number(query.limit ?? 25) || 25, state.accountsPageSize);
        const start = offset(query.after);
        const slice = META_AD_ACCOUNTS.slice(start, start + limit);
        const more = start + limit < META_AD_ACCOUNTS.length;
        return {
          data: slice.map((account) => {
            const all: Record<string, unknown> = {
              name: account.name,
              account_id: account.account_id,
              currency: account.currency,
              timezone_name: account.timezone_name,
              account_status: account.status,
            };
            return {
              ...Object.fromEntries(Object.entries(all).filter(([key]) => fields.includes(key))),
              id: `act_${account.account_id}`,
            };
          }),
          paging: {
            cursors: { before: cursor(start), after: cursor(start + slice.length) },
            ...(more && {
              next: `${origin()}${v}/me/adaccounts?${new URLSearchParams({ ...(query as Record<string, string>), after: cursor(start + slice.length) })}`,
            }),
          },
        };
      });

      app.get(`${v}/act_:account/campaigns`, async (request, reply) => {
        if (!requireUser(request, reply)) return reply;
        const account = (request.params as { account: string }).account;
        if (!reachable(account)) return unknownObject(reply, `act_${account}`);
        const query = request.query as Record<string, string | undefined>;
        const fields = (query.fields ?? "id").split(",");
        const campaigns = [
          ...new Map(
            META_ADS.filter((ad) => ad.account === account).map((ad) => [ad.campaign.id, ad.campaign]),
          ).values(),
        ];
        return {
          ...page(
            campaigns.map((campaign) => ({
              id: campaign.id,
              ...(fields.includes("name") && { name: campaign.name }),
              ...(fields.includes("effective_status") && { effective_status: campaign.status }),
            })),
            query,
            `${origin()}${v}/act_${account}/campaigns`,
          ),
        };
      });

      // Synchronous insights (GET) and the start of a report run (POST, parameters in the form or query).
      const insights = async (request: FastifyRequest, reply: FastifyReply) => {
        if (!requireUser(request, reply)) return reply;
        const account = (request.params as { account: string }).account;
        if (!reachable(account)) return unknownObject(reply, `act_${account}`);
        const failed = fault(request, reply);
        if (failed) return failed;
        const params = {
          ...(request.query as Record<string, string | undefined>),
          ...(request.method === "POST" && typeof request.body === "object" && request.body
            ? (request.body as Record<string, string | undefined>)
            : {}),
        };
        const query = readQuery(account, params, reply);
        if (!query) return reply;
        if (request.method === "POST") {
          runCounter += 1;
          const id = `6120000000${String(runCounter).padStart(5, "0")}`;
          state.runs.set(id, { query, polls: 0 });
          return { report_run_id: id };
        }
        const rows = rowsOf(query);
        if (rows.length > state.syncRowLimit) {
          return reply.code(500).send({
            error: {
              message: "Please reduce the amount of data you're asking for, then retry your request",
              type: "OAuthException",
              code: 1,
              fbtrace_id: "AfakeTraceReduce",
            },
          });
        }
        return page(rows, params, `${origin()}${v}/act_${account}/insights`);
      };
      app.get(`${v}/act_:account/insights`, insights);
      app.post(`${v}/act_:account/insights`, insights);

      // An ad account's own fields, and a report run's status.
      app.get(`${v}/:node`, async (request, reply) => {
        if (!requireUser(request, reply)) return reply;
        const node = (request.params as { node: string }).node;
        const query = request.query as Record<string, string | undefined>;
        const run = state.runs.get(node);
        if (run) {
          run.polls += 1;
          const done = run.polls >= state.pollsToComplete;
          return {
            id: node,
            account_id: run.query.account,
            async_status: done ? "Job Completed" : run.polls === 1 ? "Job Started" : "Job Running",
            async_percent_completion: done ? 100 : Math.round((100 * run.polls) / state.pollsToComplete),
            date_start: run.query.since,
            date_stop: run.query.until,
            time_ref: 1764000000,
            ...(done && { time_completed: 1764000060 }),
          };
        }
        const account = META_AD_ACCOUNTS.find((entry) => `act_${entry.account_id}` === node);
        if (!account) return unknownObject(reply, node);
        const fields = (query.fields ?? "id").split(",");
        const all: Record<string, unknown> = {
          name: account.name,
          account_id: account.account_id,
          currency: account.currency,
          timezone_name: account.timezone_name,
          account_status: account.status,
        };
        return { ...Object.fromEntries(Object.entries(all).filter(([key]) => fields.includes(key))), id: node };
      });

      // A finished run's rows, paged.
      const runRows = async (request: FastifyRequest, reply: FastifyReply, id: string) => {
        const run = state.runs.get(id);
        if (!run) return unknownObject(reply, id);
        if (!requireUser(request, reply)) return reply;
        if (run.polls < state.pollsToComplete) {
          return metaError(reply, 400, 100, "(#100) The report run is not complete yet: poll it until Job Completed");
        }
        return reply.send(
          page(
            rowsOf(run.query),
            request.query as Record<string, string | undefined>,
            `${origin()}${v}/${id}/insights`,
          ),
        );
      };
      if (meta.marketingVersion !== meta.graphVersion) {
        app.get(`${v}/:node/insights`, async (request, reply) =>
          runRows(request, reply, (request.params as { node: string }).node),
        );
      } else {
        // Both APIs at one version: `/{id}/insights` is Page insights' route (../meta/fake.ts), so run ids are taken here first.
        app.addHook("preHandler", async (request, reply) => {
          if (request.method !== "GET") return;
          const match = new RegExp(`^${v.replace(".", "\\.")}/(\\d+)/insights$`).exec(
            new URL(request.url, "http://fake").pathname,
          );
          if (!match?.[1] || !state.runs.has(match[1])) return;
          return runRows(request, reply, match[1]);
        });
      }
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "metaAds",
  after: "meta",
  build: (parts) => metaAdsFake(parts.meta.state as FakeMeta),
};
