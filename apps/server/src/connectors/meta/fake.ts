/**
 * Meta's Graph API as a part of the fakes app (./app.ts): Facebook Login's consent dialog and token
 * endpoint, `/me`, `/me/accounts` (Pages with their Page tokens and linked Instagram accounts),
 * `/me/permissions`, Page insights, Instagram account and media insights. Shapes follow:
 * - https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow (dialog, code exchange)
 * - https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived (fb_exchange_token)
 * - https://developers.facebook.com/docs/graph-api/reference/debug_token (a token's type, app, expiry, scopes)
 * - https://developers.facebook.com/docs/business-management-apis/system-users/install-apps-and-generate-tokens
 *   (System User tokens: never expiring, or 60 days)
 * - https://developers.facebook.com/docs/graph-api/guides/error-handling (the error object, codes 100/190/4/17/32/613/80001)
 * - https://developers.facebook.com/docs/graph-api/overview/rate-limiting (X-App-Usage, X-Business-Use-Case-Usage)
 * - https://developers.facebook.com/docs/graph-api/reference/user/accounts (Pages and Page tokens, cursor paging;
 *   it leaves out Pages reached through a business, which need business_management)
 * - https://developers.facebook.com/docs/graph-api/reference/business/owned_pages/ and …/business/client_pages/
 *   (a Business portfolio's own Pages and its clients' Pages), …/reference/user/businesses/ (the user's portfolios)
 * - http://developers.facebook.com/docs/reference/api/insights/ and
 *   https://developers.facebook.com/documentation/pages-api/platforminsights/page/deprecated-metrics (Page insights)
 * - https://developers.facebook.com/docs/instagram-platform/api-reference/instagram-user/insights and
 *   https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights (Instagram)
 *
 * Permissions are granted per consent (the dialog's `scope`, less what `declined` names) and carried by
 * the tokens: without business_management, `/me/businesses` is refused (#200), so Pages reached only
 * through a Business portfolio stay out of reach as at Meta.
 *
 * It refuses what Meta refuses: a wrong app secret or redirect address, a reused code, a dead token
 * (190), a user token where a Page token is needed, a removed metric (100), a range longer than Meta
 * allows, Instagram metrics that only exist as `metric_type=total_value` asked as a daily series.
 * Other Meta parts (Facebook Ads, ./meta-ads.ts) take this part's state and check tokens with `userOf`.
 */

import { createHmac } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeCall, FakeEntry, FakeFault, FakePart } from "../../../test/fakes/app";
import { answerFault, pathOf } from "../../../test/fakes/kit";

export interface FakeMeta {
  appId: string;
  appSecret: string;
  /**
   * The Graph API version this fake serves ("v25.0"): login, `/me`, Pages and insights routes exist at
   * this path segment only, so a request carrying another version (the Marketing API's, an old one) is
   * answered 404 as an unknown path.
   */
  graphVersion: string;
  /** The Marketing API version Facebook Ads' part (../facebookAds/fake.ts) serves, alone likewise. */
  marketingVersion: string;
  /** The user refuses consent on the next authorisation. */
  deny: boolean;
  /** Permissions the user unticks at the next consents (Meta lets a user grant part of a request). */
  declined: Set<string>;
  /** Portfolio Page lists the user may not read (an employee of the portfolio, not an admin): #200. */
  lockedEdges: Set<"owned_pages" | "client_pages">;
  /**
   * Who signs in at the dialog and what `/me` says (Facebook Login for social sign-in reads its e-mail;
   * null: the user did not share it). Defaults to META_USER.
   */
  user: { id: string; name: string; email: string | null };
  /** User ids or tokens whose tokens are dead (the user removed the app, or the test plays it): code 190. */
  revoked: Set<string>;
  /** Answers the next data calls (insights, media, and other parts' data routes) with these first. */
  failNext: FakeFault[];
  /**
   * Usage headers (X-App-Usage, X-Business-Use-Case-Usage, X-Ad-Account-Usage) the next successful
   * answer on a path containing `pathIncludes` carries, as Meta sends them on successes too.
   */
  usageNext: { pathIncludes: string; headers: Record<string, string> }[];
  /** Every request to the fakes app, in order. */
  calls: FakeCall[];
  /** The Pages `/me/accounts` serves per answer at most (small, so paging is exercised). */
  accountsPageSize: number;
  /** The posts `/{ig-user-id}/media` serves per answer at most, whatever `limit` asks (cursor paging). */
  mediaPageSize: number;
  /** The user id a live user token belongs to; null when unknown, expired or revoked. */
  userOf(accessToken: string): string | null;
  /** The Page a live Page token belongs to; null otherwise. */
  pageOf(accessToken: string): string | null;
  /** The permissions a user token was granted (empty when unknown). */
  grantedTo(accessToken: string): Set<string>;
  /** Makes every user token handed out so far expire now (a 60-day token reaching its end). */
  expireUserTokens(): void;
  /**
   * What fb_exchange_token answers as `expires_in` (about 60 days); a browser test shortens it to see a
   * login near its end (`POST /_fake/meta/token-lifetime {seconds}`, null for the default).
   */
  longLivedSeconds: number;
  /**
   * A System User token as Business Settings hands it out (never expiring unless `expiresInSeconds`),
   * with these permissions and for this app (default: the fake's app and Facebook Ads' permissions).
   */
  systemUserToken(options?: { scopes?: string[]; expiresInSeconds?: number; appId?: string }): string;
}

/** What Meta's fb_exchange_token answers as `expires_in`: about 60 days. */
export const LONG_LIVED_SECONDS = 5_183_944;

/** The system user of the agency's Business Manager that System User tokens belong to. */
export const META_SYSTEM_USER = { id: "61550000000000001", name: "Reportz reporting" };

/** The one Facebook user of the fake. */
export const META_USER = { id: "10228000000000001", name: "Ada Marketing" };

/** Pages the user manages; two have an Instagram professional account linked. */
export const META_PAGES = [
  { id: "104000000000001", name: "Acme Bakery", ig: { id: "17841400000000001", username: "acme.bakery" } },
  { id: "104000000000002", name: "Acme Shoes", ig: { id: "17841400000000002", username: "acmeshoes" } },
  { id: "104000000000003", name: "Acme Careers", ig: null },
] as const;

/** The user's Business portfolio (an agency): reached only with business_management. */
export const META_BUSINESS = { id: "920000000000001", name: "Ada Agency" } as const;

/**
 * Pages the user reaches only through that portfolio, not as a Page role of their own (so `/me/accounts`
 * leaves them out): a client's Page shared with the agency (`client_pages`), with an Instagram account.
 * The portfolio also owns Acme Bakery (`owned_pages`), which `/me/accounts` lists too.
 */
export const META_BUSINESS_PAGES = [
  {
    id: "104000000000004",
    name: "Northwind Dental",
    ig: { id: "17841400000000004", username: "northwind.dental" },
    via: "client_pages",
  },
] as const;

/** Every Page of the fake, however the user reaches it (insights and media answer for all of them). */
const ALL_PAGES: readonly { id: string; name: string; ig: { id: string; username: string } | null }[] = [
  ...META_PAGES,
  ...META_BUSINESS_PAGES,
];

/** Posts of the first Instagram account, newest first. */
export const META_MEDIA = [
  {
    id: "17900000000000003",
    caption: "Autumn sourdough is back",
    media_type: "IMAGE",
    timestamp: "2026-10-20T09:12:00+0000",
    permalink: "https://www.instagram.com/p/FAKE3/",
  },
  {
    id: "17900000000000002",
    caption: "Behind the scenes at 4 am",
    media_type: "VIDEO",
    timestamp: "2026-10-10T06:00:00+0000",
    permalink: "https://www.instagram.com/reel/FAKE2/",
  },
  {
    id: "17900000000000001",
    caption: "",
    media_type: "CAROUSEL_ALBUM",
    timestamp: "2026-09-30T17:45:00+0000",
    permalink: "https://www.instagram.com/p/FAKE1/",
  },
] as const;

/** Page insights metrics that exist today; the removed ones (page_impressions*, page_fans*) answer #100. */
const PAGE_METRICS = new Set([
  "page_media_view",
  "page_total_media_view_unique",
  "page_post_engagements",
  "page_views_total",
  "page_follows",
  "page_daily_follows_unique",
  "page_daily_unfollows_unique",
  "page_video_views",
]);

/** Instagram account metrics (v22+): only reach (and follower_count) come as a daily series. */
const IG_METRICS = new Set([
  "reach",
  "follower_count",
  "views",
  "accounts_engaged",
  "total_interactions",
  "likes",
  "comments",
  "shares",
  "saves",
  "replies",
  "profile_links_taps",
]);
const IG_SERIES = new Set(["reach", "follower_count"]);
/** Counted once per account over a range, so a range's figure is not the sum of its days. */
const IG_UNIQUE = new Set(["reach", "accounts_engaged"]);
const MEDIA_METRICS = new Set(["reach", "views", "likes", "comments", "saved", "shares", "total_interactions"]);

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Number(day.slice(8, 10));
const shift = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** A Page metric's value on one day (yyyy-mm-dd): numbers a test can recompute. */
export function fakePageValue(metric: string, day: string, pageId: string): number {
  const n = dayNumber(day) + (Number(pageId.slice(-1)) % 5);
  switch (metric) {
    case "page_media_view":
      return 500 + 10 * n;
    case "page_total_media_view_unique":
      return 300 + 5 * n;
    case "page_post_engagements":
      return 40 + n;
    case "page_views_total":
      return 20 + n;
    case "page_follows":
      return 1000 + n;
    case "page_daily_follows_unique":
      return 3 + (n % 4);
    case "page_daily_unfollows_unique":
      return n % 3;
    case "page_video_views":
      return 70 + 2 * n;
    default:
      return 0;
  }
}

/** An Instagram account metric's value on one day. */
export function fakeIgValue(metric: string, day: string, igId: string): number {
  const n = dayNumber(day) + (Number(igId.slice(-1)) % 5);
  const base: Record<string, number> = {
    reach: 200,
    follower_count: 2,
    views: 900,
    accounts_engaged: 60,
    total_interactions: 80,
    likes: 50,
    comments: 8,
    shares: 5,
    saves: 7,
    replies: 2,
    profile_links_taps: 4,
  };
  return (base[metric] ?? 0) + (metric === "views" ? 10 * n : n);
}

/** An Instagram metric's `total_value` over days since ≤ d < until: unique counts are de-duplicated (70 % of the sum). */
export function fakeIgTotal(metric: string, since: string, until: string, igId: string): number {
  let sum = 0;
  for (let day = since; day < until; day = shift(day, 1)) sum += fakeIgValue(metric, day, igId);
  return IG_UNIQUE.has(metric) ? Math.round(sum * 0.7) : sum;
}

/** A post's lifetime metric. */
export function fakeMediaValue(metric: string, mediaId: string): number {
  const n = Number(mediaId.slice(-1));
  const base: Record<string, number> = {
    reach: 1500,
    views: 4200,
    likes: 310,
    comments: 24,
    saved: 40,
    shares: 12,
    total_interactions: 386,
  };
  return (base[metric] ?? 0) + 100 * n;
}

/** The end of day D in Pacific time (the Page's zone here), as Meta writes it: D+1T07:00:00+0000 in summer, T08:00 in winter. */
export function pacificEndTime(day: string): string {
  const next = shift(day, 1);
  for (const hour of ["07", "08"]) {
    const at = new Date(`${next}T${hour}:00:00Z`);
    const local = new Intl.DateTimeFormat("en-US", {
      timeZone: "America/Los_Angeles",
      hour: "numeric",
      hourCycle: "h23",
    }).format(at);
    if (Number(local) === 0) return `${next}T${hour}:00:00+0000`;
  }
  return `${next}T08:00:00+0000`;
}

let trace = 0;
/** Meta's error object; every Graph failure has this shape. */
export function metaError(
  reply: FastifyReply,
  status: number,
  code: number,
  message: string,
  extra: { subcode?: number; type?: string; headers?: Record<string, string> } = {},
) {
  trace += 1;
  return reply
    .code(status)
    .headers(extra.headers ?? {})
    .send({
      error: {
        message,
        type: extra.type ?? "OAuthException",
        code,
        ...(extra.subcode !== undefined && { error_subcode: extra.subcode }),
        fbtrace_id: `AfakeTrace${trace}`,
      },
    });
}

/** The access token of a Graph request: `Authorization: Bearer|OAuth …` or `access_token=`. */
export function tokenOf(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const match = /^(?:Bearer|OAuth) (.+)$/.exec(Array.isArray(header) ? (header[0] ?? "") : (header ?? ""));
  if (match?.[1]) return match[1];
  return String((request.query as Record<string, unknown>).access_token ?? "");
}

/** Dates as Meta takes them in since/until: yyyy-mm-dd or a Unix timestamp (seconds). */
function dayOf(value: string | undefined): string | null {
  if (!value) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  if (/^\d+$/.test(value)) return new Date(Number(value) * 1000).toISOString().slice(0, 10);
  return null;
}

export function metaFake(): FakePart<FakeMeta> {
  const codes = new Map<string, { redirectUri: string; userId: string; granted: Set<string> }>();
  const userTokens = new Map<
    string,
    {
      userId: string;
      expiresAt: number;
      granted: Set<string>;
      type?: "USER" | "SYSTEM_USER";
      scopes?: string[];
      appId?: string;
    }
  >();
  const pageTokens = new Map<string, { pageId: string; userId: string }>();
  let counter = 0;

  const state: FakeMeta = {
    appId: "1234567890123456",
    appSecret: "fake-meta-app-secret",
    // Deliberately not one another: a connector calling with the wrong API's version gets a 404.
    graphVersion: "v25.0",
    marketingVersion: "v27.0",
    deny: false,
    lockedEdges: new Set(),
    declined: new Set(),
    user: { ...META_USER, email: "ada.marketing@facebook.example" },
    revoked: new Set(),
    failNext: [],
    usageNext: [],
    calls: [],
    accountsPageSize: 2,
    mediaPageSize: 100,
    longLivedSeconds: LONG_LIVED_SECONDS,
    userOf(accessToken) {
      const entry = userTokens.get(accessToken);
      if (!entry || entry.expiresAt <= Date.now()) return null;
      if (state.revoked.has(entry.userId) || state.revoked.has(accessToken)) return null;
      return entry.userId;
    },
    pageOf(accessToken) {
      const entry = pageTokens.get(accessToken);
      if (!entry || state.revoked.has(entry.userId) || state.revoked.has(accessToken)) return null;
      return entry.pageId;
    },
    grantedTo(accessToken) {
      return new Set(userTokens.get(accessToken)?.granted ?? []);
    },
    expireUserTokens() {
      for (const entry of userTokens.values()) if (entry.type !== "SYSTEM_USER") entry.expiresAt = 0;
    },
    systemUserToken(options = {}) {
      counter += 1;
      const token = `EAAfakeSystem${counter}`;
      userTokens.set(token, {
        userId: META_SYSTEM_USER.id,
        expiresAt: options.expiresInSeconds ? Date.now() + options.expiresInSeconds * 1000 : Number.POSITIVE_INFINITY,
        type: "SYSTEM_USER",
        scopes: options.scopes ?? ["ads_read", "read_insights", "business_management"],
        granted: new Set(options.scopes ?? ["ads_read", "read_insights", "business_management"]),
        appId: options.appId ?? state.appId,
      });
      return token;
    },
  };

  const issueUser = (userId: string, seconds: number, granted: Set<string>) => {
    counter += 1;
    const token = `EAAfake${seconds > 86_400 ? "Long" : "Short"}${counter}`;
    userTokens.set(token, { userId, expiresAt: Date.now() + seconds * 1000, granted: new Set(granted) });
    return token;
  };
  const pageToken = (pageId: string, userId: string) => {
    const token = `EAAfakePage${pageId}u${userId}`;
    pageTokens.set(token, { pageId, userId });
    return token;
  };

  /** Why a token is refused, in Meta's words (code 190 and its subcodes). */
  const deadToken = (reply: FastifyReply, token: string) => {
    const user = userTokens.get(token)?.userId ?? pageTokens.get(token)?.userId;
    if (user && (state.revoked.has(user) || state.revoked.has(token))) {
      return metaError(
        reply,
        400,
        190,
        `Error validating access token: The user has not authorized application ${state.appId}.`,
        { subcode: 458 },
      );
    }
    if (user) {
      return metaError(reply, 400, 190, "Error validating access token: Session has expired.", { subcode: 463 });
    }
    return metaError(reply, 400, 190, "Invalid OAuth access token - Cannot parse access token");
  };

  /** Graph calls may carry appsecret_proof; a wrong one is refused as Meta refuses it. */
  const badProof = (request: FastifyRequest, token: string) => {
    const proof = (request.query as Record<string, string | undefined>).appsecret_proof;
    if (proof === undefined) return false;
    return proof !== createHmac("sha256", state.appSecret).update(token).digest("hex");
  };

  /** The user behind a user token, or an error answer already sent. */
  const requireUser = (request: FastifyRequest, reply: FastifyReply): string | null => {
    const token = tokenOf(request);
    if (!token) {
      void metaError(
        reply,
        400,
        2500,
        "An active access token must be used to query information about the current user.",
      );
      return null;
    }
    if (badProof(request, token)) {
      void metaError(reply, 400, 100, "Invalid appsecret_proof provided in the API argument", {
        type: "GraphMethodException",
      });
      return null;
    }
    const user = state.userOf(token);
    if (!user) void deadToken(reply, token);
    return user;
  };

  const fault = (request: FastifyRequest, reply: FastifyReply) => {
    return answerFault(state.failNext, reply, pathOf(request));
  };

  return {
    state,
    env: (origin) => ({
      META_APP_ID: state.appId,
      META_APP_SECRET: state.appSecret,
      META_GRAPH_URL: origin,
      META_DIALOG_URL: origin,
      META_GRAPH_VERSION: state.graphVersion,
      META_MARKETING_VERSION: state.marketingVersion,
    }),
    register(app, shared) {
      state.calls = shared.calls;
      const v = `/${state.graphVersion}`;
      // Every Graph answer passes here (this part's and Facebook Ads'): a success takes scripted usage headers.
      app.addHook("onSend", async (request, reply, payload) => {
        if (reply.statusCode < 200 || reply.statusCode >= 300) return payload;
        const path = new URL(request.url, "http://fake").pathname;
        const index = state.usageNext.findIndex((entry) => path.includes(entry.pathIncludes));
        const [usage] = index < 0 ? [] : state.usageNext.splice(index, 1);
        if (usage) reply.headers(usage.headers);
        return payload;
      });

      // www.facebook.com/{v}/dialog/oauth: consent at once, or refused (Meta's error parameters).
      app.get(`${v}/dialog/oauth`, async (request, reply) => {
        const query = request.query as Record<string, string | undefined>;
        if (query.client_id !== state.appId) {
          return reply
            .code(400)
            .type("text/html")
            .send("<p>Invalid App ID: The provided app ID does not look like a valid app ID.</p>");
        }
        let redirect: URL;
        try {
          redirect = new URL(query.redirect_uri ?? "");
        } catch {
          return reply.code(400).type("text/html").send("<p>URL Blocked: This redirect failed.</p>");
        }
        redirect.searchParams.set("state", query.state ?? "");
        if (state.deny) {
          state.deny = false;
          redirect.searchParams.set("error", "access_denied");
          redirect.searchParams.set("error_code", "200");
          redirect.searchParams.set("error_description", "Permissions error");
          redirect.searchParams.set("error_reason", "user_denied");
        } else {
          const code = `AQfakeCode${++counter}`;
          const granted = new Set(
            (query.scope ?? "")
              .split(",")
              .map((scope) => scope.trim())
              .filter((scope) => scope && !state.declined.has(scope)),
          );
          codes.set(code, { redirectUri: query.redirect_uri ?? "", userId: state.user.id, granted });
          redirect.searchParams.set("code", code);
        }
        redirect.hash = "_=_";
        return reply.redirect(redirect.toString(), 302);
      });

      // graph.facebook.com/{v}/oauth/access_token: a GET, the secret in the query (code or fb_exchange_token).
      app.get(`${v}/oauth/access_token`, async (request, reply) => {
        const query = request.query as Record<string, string | undefined>;
        if (query.client_id !== state.appId) {
          return metaError(reply, 400, 101, "Error validating application. Invalid application ID.");
        }
        if (query.client_secret !== state.appSecret) {
          return metaError(reply, 400, 1, "Error validating client secret.");
        }
        if (query.grant_type === "fb_exchange_token") {
          const user = state.userOf(query.fb_exchange_token ?? "");
          if (!user) return deadToken(reply, query.fb_exchange_token ?? "");
          // About 60 days (shorter when a test asked).
          const seconds = state.longLivedSeconds;
          const granted = state.grantedTo(query.fb_exchange_token ?? "");
          return { access_token: issueUser(user, seconds, granted), token_type: "bearer", expires_in: seconds };
        }
        const code = codes.get(query.code ?? "");
        codes.delete(query.code ?? "");
        if (!code) {
          return metaError(reply, 400, 100, "This authorization code has been used.", { subcode: 36009 });
        }
        if (code.redirectUri !== query.redirect_uri) {
          return metaError(
            reply,
            400,
            100,
            "Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request",
            { subcode: 36008 },
          );
        }
        return { access_token: issueUser(code.userId, 5400, code.granted), token_type: "bearer", expires_in: 5400 };
      });

      // For browser tests in another process: a login's lifetime, and a System User token to paste.
      app.post("/_fake/meta/token-lifetime", async (request) => {
        const seconds = Number((request.body as { seconds?: unknown } | null)?.seconds);
        state.longLivedSeconds = Number.isFinite(seconds) && seconds > 0 ? seconds : LONG_LIVED_SECONDS;
        return { seconds: state.longLivedSeconds };
      });
      app.post("/_fake/meta/system-user-token", async () => ({ token: state.systemUserToken() }));

      // What a token is, asked with the app's token (app id|secret); a dead token is `is_valid: false`, not an error.
      app.get(`${v}/debug_token`, async (request, reply) => {
        if (tokenOf(request) !== `${state.appId}|${state.appSecret}`) {
          return metaError(reply, 400, 190, "Invalid OAuth access token - Cannot parse access token");
        }
        const input = String((request.query as Record<string, unknown>).input_token ?? "");
        const entry = userTokens.get(input);
        const live = state.userOf(input);
        if (!entry) {
          return {
            data: { is_valid: false, error: { code: 190, message: "Invalid OAuth access token." }, scopes: [] },
          };
        }
        const expiresAt = Number.isFinite(entry.expiresAt) ? Math.floor(entry.expiresAt / 1000) : 0;
        return {
          data: {
            app_id: entry.appId ?? state.appId,
            type: entry.type ?? "USER",
            application: "Reportz (fake)",
            data_access_expires_at: expiresAt === 0 ? 0 : expiresAt + 30 * 86_400,
            expires_at: expiresAt,
            is_valid: live !== null,
            ...(live === null && {
              error: { code: 190, message: "Error validating access token: Session has expired." },
            }),
            scopes: entry.scopes ?? ["ads_read", "read_insights", "business_management", "pages_show_list"],
            user_id: entry.userId,
          },
        };
      });

      app.get(`${v}/me`, async (request, reply) => {
        const user = requireUser(request, reply);
        if (!user) return reply;
        if (user === META_SYSTEM_USER.id) return META_SYSTEM_USER;
        const fields = String((request.query as Record<string, unknown>).fields ?? "id,name").split(",");
        // The signed-in user's own fields; an e-mail the user did not share is left out, as Graph does.
        const me = user === state.user.id ? state.user : { ...META_USER, email: null };
        return Object.fromEntries(
          Object.entries(me).filter(([key, value]) => (fields.includes(key) || key === "id") && value !== null),
        );
      });

      app.delete(`${v}/me/permissions`, async (request, reply) => {
        const user = requireUser(request, reply);
        if (!user) return reply;
        state.revoked.add(user);
        return { success: true };
      });

      // The user's Pages with their Page tokens, `limit` per answer (at most accountsPageSize), cursor `after`.
      app.get(`${v}/me/accounts`, async (request, reply) => {
        const user = requireUser(request, reply);
        if (!user) return reply;
        const query = request.query as Record<string, string | undefined>;
        const fields = query.fields ?? "id,name,access_token,category,tasks";
        const limit = Math.min(Number(query.limit ?? 25) || 25, state.accountsPageSize);
        const start = query.after ? Number(Buffer.from(query.after, "base64url").toString()) : 0;
        const slice = META_PAGES.slice(start, start + limit);
        const data = slice.map((page) => {
          const out: Record<string, unknown> = { id: page.id };
          if (fields.includes("name")) out.name = page.name;
          if (fields.includes("access_token")) out.access_token = pageToken(page.id, user);
          if (fields.includes("category")) out.category = "Local business";
          if (fields.includes("instagram_business_account") && page.ig) {
            out.instagram_business_account = { id: page.ig.id, username: page.ig.username };
          }
          return out;
        });
        const cursor = (index: number) => Buffer.from(String(index)).toString("base64url");
        const more = start + limit < META_PAGES.length;
        return {
          data,
          paging: {
            cursors: { before: cursor(start), after: cursor(start + slice.length) },
            ...(more && {
              next: `${shared.origin()}${v}/me/accounts?fields=${encodeURIComponent(fields)}&limit=${limit}&after=${cursor(start + slice.length)}`,
            }),
          },
        };
      });

      // The user's Business portfolios: Meta refuses this edge without business_management.
      const requireBusinessManagement = (request: FastifyRequest, reply: FastifyReply): string | null => {
        const user = requireUser(request, reply);
        if (!user) return null;
        if (!state.grantedTo(tokenOf(request)).has("business_management")) {
          void metaError(reply, 403, 200, "(#200) Requires business_management permission to manage the object");
          return null;
        }
        return user;
      };
      app.get(`${v}/me/businesses`, async (request, reply) => {
        if (!requireBusinessManagement(request, reply)) return reply;
        return { data: [{ id: META_BUSINESS.id, name: META_BUSINESS.name }], paging: { cursors: {} } };
      });
      // A portfolio's own Pages and its clients' Pages, with the same fields as `/me/accounts` (one answer).
      for (const edge of ["owned_pages", "client_pages"] as const) {
        app.get(`${v}/:business/${edge}`, async (request, reply) => {
          const user = requireBusinessManagement(request, reply);
          if (!user) return reply;
          if (state.lockedEdges.has(edge)) {
            return metaError(reply, 403, 200, "(#200) The user does not have permission to view this business's pages");
          }
          const business = (request.params as { business: string }).business;
          if (business !== META_BUSINESS.id) {
            return metaError(
              reply,
              400,
              100,
              `Unsupported get request. Object with ID '${business}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
              { subcode: 33, type: "GraphMethodException" },
            );
          }
          const fields = String((request.query as Record<string, unknown>).fields ?? "id,name");
          const list = edge === "owned_pages" ? [META_PAGES[0]] : META_BUSINESS_PAGES;
          const data = list.map((page) => ({
            id: page.id,
            ...(fields.includes("name") && { name: page.name }),
            ...(fields.includes("access_token") && { access_token: pageToken(page.id, user) }),
            ...(fields.includes("instagram_business_account") &&
              page.ig && { instagram_business_account: { id: page.ig.id, username: page.ig.username } }),
          }));
          return { data, paging: { cursors: {} } };
        });
      }

      // Insights of a Page (Page token) or an Instagram account (user token), and a post's insights.
      app.get(`${v}/:node/insights`, async (request, reply) => {
        const node = (request.params as { node: string }).node;
        const query = request.query as Record<string, string | undefined>;
        const token = tokenOf(request);
        if (badProof(request, token)) {
          return metaError(reply, 400, 100, "Invalid appsecret_proof provided in the API argument", {
            type: "GraphMethodException",
          });
        }
        const page = ALL_PAGES.find((entry) => entry.id === node);
        const ig = ALL_PAGES.find((entry) => entry.ig?.id === node)?.ig;
        const media = META_MEDIA.find((entry) => entry.id === node);
        if (page) {
          if (state.userOf(token)) {
            return metaError(reply, 400, 190, "(#190) This method must be called with a Page Access Token");
          }
          const owner = state.pageOf(token);
          if (!owner) return deadToken(reply, token);
          if (owner !== page.id) {
            return metaError(reply, 400, 200, "(#200) The Page Access Token does not belong to this Page.");
          }
        } else if (!state.userOf(token)) {
          return deadToken(reply, token);
        }
        const failed = fault(request, reply);
        if (failed) return failed;
        if (!page && !ig && !media) {
          return metaError(
            reply,
            400,
            100,
            `Unsupported get request. Object with ID '${node}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
            { subcode: 33, type: "GraphMethodException" },
          );
        }
        const metrics = (query.metric ?? "").split(",").filter(Boolean);
        if (metrics.length === 0) return metaError(reply, 400, 100, "(#100) The parameter metric is required");
        if (media) {
          const unknown = metrics.findIndex((metric) => !MEDIA_METRICS.has(metric));
          if (unknown >= 0) {
            return metaError(
              reply,
              400,
              100,
              `(#100) metric[${unknown}] must be one of the following values: ${[...MEDIA_METRICS].join(", ")}`,
            );
          }
          return {
            data: metrics.map((name) => ({
              name,
              period: "lifetime",
              values: [{ value: fakeMediaValue(name, media.id) }],
              title: name,
              description: "",
              id: `${media.id}/insights/${name}/lifetime`,
            })),
          };
        }
        const since = dayOf(query.since);
        const until = dayOf(query.until);
        if (query.period !== "day") {
          return metaError(
            reply,
            400,
            100,
            "(#100) The fake serves period=day only; Meta accepts day, week, days_28 too",
          );
        }
        if (!since || !until || until <= since) {
          return metaError(reply, 400, 100, "(#100) since and until must be dates, since before until");
        }
        const span = (Date.parse(until) - Date.parse(since)) / DAY_MS;
        const days: string[] = [];
        for (let day = since; day < until; day = shift(day, 1)) days.push(day);
        if (page) {
          if (span > 90) {
            return metaError(
              reply,
              400,
              100,
              "(#100) There cannot be more than 90 days (7776000 s) between since and until",
            );
          }
          const invalid = metrics.find((metric) => !PAGE_METRICS.has(metric));
          if (invalid) return metaError(reply, 400, 100, "(#100) The value must be a valid insights metric");
          return {
            data: metrics.map((name) => ({
              name,
              period: "day",
              values: days.map((day) => ({ value: fakePageValue(name, day, page.id), end_time: pacificEndTime(day) })),
              title: name,
              description: "",
              id: `${page.id}/insights/${name}/day`,
            })),
            paging: {
              previous: `${shared.origin()}${v}/${page.id}/insights?metric=${query.metric}&period=day&since=${shift(since, -span)}&until=${since}`,
              next: `${shared.origin()}${v}/${page.id}/insights?metric=${query.metric}&period=day&since=${until}&until=${shift(until, span)}`,
            },
          };
        }
        const account = ig as NonNullable<typeof ig>;
        if (span > 30) {
          return metaError(
            reply,
            400,
            100,
            "(#100) There cannot be more than 30 days (2592000 s) between since and until",
          );
        }
        const unknown = metrics.findIndex((metric) => !IG_METRICS.has(metric));
        if (unknown >= 0) {
          return metaError(
            reply,
            400,
            100,
            `(#100) metric[${unknown}] must be one of the following values: ${[...IG_METRICS].join(", ")}`,
          );
        }
        if (query.metric_type === "total_value") {
          return {
            data: metrics.map((name) => ({
              name,
              period: "day",
              title: name,
              description: "",
              total_value: { value: fakeIgTotal(name, since, until, account.id) },
              id: `${account.id}/insights/${name}/day`,
            })),
            paging: {},
          };
        }
        const notSeries = metrics.filter((metric) => !IG_SERIES.has(metric));
        if (notSeries.length > 0) {
          return metaError(
            reply,
            400,
            100,
            `(#100) The following metrics (${notSeries.join(", ")}) should be specified with parameter metric_type=total_value`,
          );
        }
        return {
          data: metrics.map((name) => ({
            name,
            period: "day",
            values: days.map((day) => ({ value: fakeIgValue(name, day, account.id), end_time: pacificEndTime(day) })),
            title: name,
            description: "",
            id: `${account.id}/insights/${name}/day`,
          })),
          paging: {},
        };
      });

      // An Instagram account's posts, newest first, cursor paging.
      app.get(`${v}/:node/media`, async (request, reply) => {
        const user = requireUser(request, reply);
        if (!user) return reply;
        const failed = fault(request, reply);
        if (failed) return failed;
        const node = (request.params as { node: string }).node;
        const ig = ALL_PAGES.find((entry) => entry.ig?.id === node)?.ig;
        if (!ig) {
          return metaError(
            reply,
            400,
            100,
            `Unsupported get request. Object with ID '${node}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
            { subcode: 33, type: "GraphMethodException" },
          );
        }
        const query = request.query as Record<string, string | undefined>;
        const fields = String(query.fields ?? "id").split(",");
        const list = ig.id === META_PAGES[0].ig.id ? META_MEDIA : [];
        // `limit` posts an answer (25 unless asked), `after` the cursor of the last one read; `next` only
        // while more posts follow, as the Graph API's cursor paging does.
        const limit = Math.min(Number(query.limit ?? 25) || 25, state.mediaPageSize);
        const start = query.after ? Number(Buffer.from(query.after, "base64url").toString()) : 0;
        const slice = list.slice(start, start + limit);
        const cursor = (index: number) => Buffer.from(String(index)).toString("base64url");
        const more = start + limit < list.length;
        return {
          data: slice.map((media) =>
            Object.fromEntries(Object.entries(media).filter(([key]) => key === "id" || fields.includes(key))),
          ),
          paging: {
            cursors: { before: cursor(start), after: cursor(start + slice.length) },
            ...(more && {
              next: `${shared.origin()}${v}/${node}/media?fields=${encodeURIComponent(fields.join(","))}&limit=${limit}&after=${cursor(start + slice.length)}`,
            }),
          },
        };
      });
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "meta",
  build: () => metaFake(),
};
