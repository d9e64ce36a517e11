/**
 * LinkedIn as a part of the fakes app (./app.ts): the OAuth 2.0 consent screen, token and revoke
 * endpoints, OpenID Connect userinfo, and the versioned REST API the LinkedIn connectors read.
 * Shapes follow:
 * - learn.microsoft.com/linkedin/shared/authentication/authorization-code-flow (consent, form POST to
 *   /oauth/v2/accessToken with client_id and client_secret, `expires_in` 60 days, refresh tokens only for
 *   approved apps; a cancelled consent comes back as `error=user_cancelled_authorize`);
 * - learn.microsoft.com/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2 (GET /v2/userinfo);
 * - learn.microsoft.com/linkedin/shared/integrations/people/profile-api (GET /v2/me, r_basicprofile);
 * - learn.microsoft.com/linkedin/marketing/versioning (`LinkedIn-Version: YYYYMM` on every /rest call,
 *   `X-Restli-Protocol-Version: 2.0.0`; an expired version answers 426 NONEXISTENT_VERSION);
 * - learn.microsoft.com/linkedin/marketing/integrations/ads-reporting/ads-reporting (adAnalytics: the
 *   analytics finder, one pivot, DAILY or ALL, `dateRange` and `accounts=List(urn%3A…)` in Rest.li 2.0
 *   syntax, **only impressions and clicks unless `fields` names more**, no paging);
 * - …/ads/account-structure (adAccounts, adCampaigns, adCampaignGroups, creatives; `pageSize`/`pageToken`);
 * - …/community-management/organizations (organizationAcls, organizations, share, follower and page
 *   statistics; time-bound statistics for the past 12 months only);
 * - the error body `{status, serviceErrorCode, code, message}` (65600 invalid, 65601 revoked, 65602
 *   expired token; 403 ACCESS_DENIED; 429 without rate headers).
 * Two apps, as LinkedIn requires (learn.microsoft.com/linkedin/marketing/community-management/community-management-overview:
 * the Community Management API must be the only product on its app): the Ads app (`clientId`, products
 * Advertising API and Sign In with LinkedIn) and the Community Management app (`socialClientId`). Each
 * consent asking for a scope its app's products do not grant comes back `error=unauthorized_scope_error`,
 * and a code is exchanged only by the app it was given to.
 * Served under `/linkedin` on the fakes' origin (LINKEDIN_AUTH_URL and LINKEDIN_API_URL point there):
 * `/oauth/v2/…` and `/rest/…` are generic enough to collide with other parts. Words of errors LinkedIn does
 * not document exactly (the 12-month refusal, a malformed Rest.li value) are the fake's own.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FakeCall, FakeEntry, FakeFault, FakePart } from "../../../test/fakes/app";
import { answerFault, pathOf } from "../../../test/fakes/kit";

export const LINKEDIN_PREFIX = "/linkedin";

/** The one LinkedIn member of the fake. */
export const LINKEDIN_MEMBER = { sub: "782bbtaQ", name: "Grace Hopper", given: "Grace", family: "Hopper" };

export const LINKEDIN_ACCOUNTS = [
  { id: 508000001, name: "Acme Shoes EU", currency: "EUR", status: "ACTIVE" },
  { id: 508000002, name: "Acme Careers", currency: "USD", status: "ACTIVE" },
  { id: 508000003, name: "Old Brand", currency: "USD", status: "CANCELED" },
] as const;

export const LINKEDIN_GROUPS = [
  { id: 620000001, account: 508000001, name: "Always on" },
  { id: 620000002, account: 508000001, name: "Launch" },
  { id: 620000003, account: 508000002, name: "Hiring" },
] as const;

export const LINKEDIN_CAMPAIGNS = [
  { id: 710000001, account: 508000001, group: 620000001, name: "Retargeting", status: "ACTIVE" },
  { id: 710000002, account: 508000001, group: 620000001, name: "Lead gen form", status: "ACTIVE" },
  // Paused all along: no delivery, so adAnalytics has no element for it.
  { id: 710000003, account: 508000001, group: 620000002, name: "Brand video", status: "PAUSED" },
  { id: 710000004, account: 508000002, group: 620000003, name: "Careers", status: "ACTIVE" },
] as const;

/** Creatives: one without a name (LinkedIn's name is optional), one on a lead-gen form. */
export const LINKEDIN_CREATIVES = [
  { id: 810000001, campaign: 710000001, name: "Carousel A" },
  { id: 810000002, campaign: 710000001, name: null },
  { id: 810000003, campaign: 710000002, name: "Lead form ad" },
  { id: 810000004, campaign: 710000004, name: "We are hiring" },
] as const;

/** Organizations: the member administers two and is only an analyst of the third. */
export const LINKEDIN_ORGANIZATIONS = [
  { id: 2414183, name: "Acme Bakery", vanity: "acme-bakery", role: "ADMINISTRATOR" },
  { id: 2414184, name: "Acme Shoes", vanity: "acme-shoes", role: "ADMINISTRATOR" },
  { id: 2414185, name: "Acme Holding", vanity: "acme-holding", role: "ANALYST" },
] as const;

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Number(day.slice(8, 10));
const dayOfMs = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const shift = (day: string, days: number) => dayOfMs(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);

/** One creative's delivery on one day: numbers a test can recompute. Cost is a decimal string, as LinkedIn sends money. */
export function fakeAdsDay(creativeId: number, day: string) {
  const n = dayNumber(day) + (creativeId % 10);
  const clicks = 8 + (n % 5);
  return {
    impressions: 1000 + 37 * n,
    clicks,
    cost: Math.round(clicks * 235 + n * 3) / 100,
    conversions: n % 3,
    leads: creativeId === 810000003 ? 1 + (n % 2) : 0,
  };
}

/** The sums over creatives and days, the way the fake's adAnalytics sums them (cost to the cent). */
export function fakeAdsSum(creativeIds: readonly number[], days: readonly string[]) {
  const sum = { impressions: 0, clicks: 0, cost: 0, conversions: 0, leads: 0 };
  for (const id of creativeIds) {
    for (const day of days) {
      const one = fakeAdsDay(id, day);
      sum.impressions += one.impressions;
      sum.clicks += one.clicks;
      sum.cost += one.cost;
      sum.conversions += one.conversions;
      sum.leads += one.leads;
    }
  }
  sum.cost = Math.round(sum.cost * 100) / 100;
  return sum;
}

/** One organization's post statistics on one day. */
export function fakeShareDay(organizationId: number, day: string) {
  const n = dayNumber(day) + (organizationId % 10);
  return {
    impressionCount: 400 + 11 * n,
    uniqueImpressionsCount: 250 + 7 * n,
    clickCount: 20 + (n % 7),
    likeCount: 15 + (n % 5),
    commentCount: n % 4,
    shareCount: n % 3,
  };
}

/** One organization's follower gains on one day. */
export function fakeFollowerDay(organizationId: number, day: string) {
  const n = dayNumber(day) + (organizationId % 10);
  return { organicFollowerGain: 3 + (n % 6), paidFollowerGain: n % 2 };
}

/** One organization's page views on one day. */
export function fakePageDay(organizationId: number, day: string) {
  const n = dayNumber(day) + (organizationId % 10);
  return { desktop: 30 + n, mobile: 20 + (n % 9) };
}

interface Token {
  member: string;
  scopes: Set<string>;
  expiresAt: number;
}

export interface FakeLinkedIn {
  /** The Ads app (Advertising API, Sign In with LinkedIn using OpenID Connect). */
  clientId: string;
  clientSecret: string;
  /** The Community Management API's app (alone on it). */
  socialClientId: string;
  socialClientSecret: string;
  /** The oldest `LinkedIn-Version` still served (older ones answer 426 NONEXISTENT_VERSION). */
  oldestVersion: string;
  /** The newest version (later months answer 426 too: they do not exist yet). */
  newestVersion: string;
  /** The member cancels the next consent screen. */
  deny: boolean;
  /** The app is approved for programmatic refresh: token answers carry a refresh token. */
  issueRefreshTokens: boolean;
  /** Tokens (access or refresh) revoked by the member or through /oauth/v2/revoke. */
  revoked: Set<string>;
  /** Ad account or organization ids the member lost their role on: 403 ACCESS_DENIED. */
  lost: Set<number>;
  /** Most elements a finder page answers (small, so paging is exercised). */
  pageSize: number;
  /** Scripted faults for /rest calls (without `pathIncludes`: the next /rest call). */
  failNext: FakeFault[];
  calls: FakeCall[];
  /** Makes every access token handed out so far expire now (a 60-day token reaching its end). */
  expireAccessTokens(): void;
  /** Whether an access token is live. */
  live(accessToken: string): boolean;
}

/** LinkedIn's error body. */
function liError(reply: FastifyReply, status: number, message: string, code?: string, serviceErrorCode?: number) {
  return reply
    .code(status)
    .type("application/json")
    .send({
      status,
      ...(serviceErrorCode !== undefined && { serviceErrorCode }),
      ...(code && { code }),
      message,
    });
}

/** The raw (undecoded) query parameters: Rest.li 2.0 values must be read as sent. */
function rawQuery(request: FastifyRequest): Map<string, string> {
  const search = request.url.includes("?") ? request.url.slice(request.url.indexOf("?") + 1) : "";
  const params = new Map<string, string>();
  for (const part of search.split("&")) {
    if (!part) continue;
    const at = part.indexOf("=");
    params.set(at < 0 ? part : part.slice(0, at), at < 0 ? "" : part.slice(at + 1));
  }
  return params;
}

/** `List(urn%3Ali%3AsponsoredAccount%3A1,…)` → the ids; null when malformed or the URNs are not encoded. */
function listIds(value: string | undefined, kind: string): number[] | null {
  const match = /^List\((.*)\)$/.exec(value ?? "");
  if (!match?.[1]) return null;
  const ids: number[] = [];
  for (const item of match[1].split(",")) {
    // Rest.li 2.0: a URN inside List() must be percent-encoded, or its colons read as structure.
    const urn = new RegExp(`^urn%3Ali%3A${kind}%3A(\\d+)$`, "i").exec(item);
    if (!urn?.[1]) return null;
    ids.push(Number(urn[1]));
  }
  return ids;
}

/** `(start:(year:2026,month:10,day:1),end:(year:…))` → inclusive days. */
function dateRangeOf(value: string | undefined): { start: string; end: string } | null {
  const match =
    /^\(start:\(year:(\d{4}),month:(\d{1,2}),day:(\d{1,2})\),end:\(year:(\d{4}),month:(\d{1,2}),day:(\d{1,2})\)\)$/.exec(
      value ?? "",
    );
  if (!match) return null;
  const day = (y?: string, m?: string, d?: string) =>
    `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  return { start: day(match[1], match[2], match[3]), end: day(match[4], match[5], match[6]) };
}

/** `(timeRange:(start:ms,end:ms),timeGranularityType:DAY)` → the range (end exclusive). */
function intervalsOf(value: string | undefined): { start: number; end: number; granularity: string } | null {
  const match = /^\(timeRange:\(start:(\d+),end:(\d+)\),timeGranularityType:(DAY|MONTH)\)$/.exec(value ?? "");
  if (!match) return null;
  return { start: Number(match[1]), end: Number(match[2]), granularity: match[3] ?? "DAY" };
}

const dateRecord = (day: string) => ({
  year: Number(day.slice(0, 4)),
  month: Number(day.slice(5, 7)),
  day: Number(day.slice(8, 10)),
});

const daysFrom = (start: string, end: string) => {
  const days: string[] = [];
  for (let day = start; day <= end; day = shift(day, 1)) days.push(day);
  return days;
};

export function linkedinFake(): FakePart<FakeLinkedIn> {
  const codes = new Map<string, { redirectUri: string; scopes: Set<string>; clientId: string }>();
  const accessTokens = new Map<string, Token>();
  const refreshTokens = new Map<string, Token & { refreshExpiresAt: number }>();
  let counter = 0;

  const state: FakeLinkedIn = {
    clientId: "86fakeLinkedInClient",
    clientSecret: "fake-linkedin-client-secret",
    socialClientId: "77fakeLinkedInCommunity",
    socialClientSecret: "fake-linkedin-community-secret",
    oldestVersion: "202512",
    newestVersion: "202611",
    deny: false,
    issueRefreshTokens: false,
    revoked: new Set(),
    lost: new Set(),
    pageSize: 2,
    failNext: [],
    calls: [],
    expireAccessTokens() {
      for (const token of accessTokens.values()) token.expiresAt = 0;
    },
    live(accessToken) {
      const token = accessTokens.get(accessToken);
      return Boolean(token && token.expiresAt > Date.now() && !state.revoked.has(accessToken));
    },
  };

  const issue = (scopes: Set<string>) => {
    counter += 1;
    const access = `AQVfakeAccess${counter}`;
    const expiresIn = 5_184_000; // 60 days
    accessTokens.set(access, { member: LINKEDIN_MEMBER.sub, scopes, expiresAt: Date.now() + expiresIn * 1000 });
    return { access, expiresIn };
  };

  /** The member's token of a request, or the 401 LinkedIn answers. */
  const requireToken = (request: FastifyRequest, reply: FastifyReply): Token | null => {
    const header = String(request.headers.authorization ?? "");
    const value = /^Bearer (.+)$/.exec(header)?.[1] ?? "";
    const token = accessTokens.get(value);
    if (!token) {
      void liError(reply, 401, "Invalid access token", "INVALID_ACCESS_TOKEN", 65600);
      return null;
    }
    if (state.revoked.has(value)) {
      void liError(
        reply,
        401,
        "The token used in the request has been revoked by the user",
        "REVOKED_ACCESS_TOKEN",
        65601,
      );
      return null;
    }
    if (token.expiresAt <= Date.now()) {
      void liError(reply, 401, "The token used in the request has expired", "EXPIRED_ACCESS_TOKEN", 65602);
      return null;
    }
    return token;
  };

  const denied = (reply: FastifyReply, resource: string) =>
    liError(reply, 403, `Not enough permissions to access: ${resource}.GET.20261001`, "ACCESS_DENIED", 100);

  const needsScope = (reply: FastifyReply, token: Token, scope: string, resource: string) => {
    if (token.scopes.has(scope)) return false;
    void denied(reply, resource);
    return true;
  };

  /** A finder page of `elements` with LinkedIn's cursor (`metadata.nextPageToken`). */
  const page = <T>(elements: readonly T[], query: Map<string, string>) => {
    const size = Math.min(Number(query.get("pageSize") ?? 10) || 10, state.pageSize);
    const offset = Number(Buffer.from(decodeURIComponent(query.get("pageToken") ?? ""), "base64url").toString() || 0);
    const slice = elements.slice(offset, offset + size);
    const next = offset + size < elements.length ? Buffer.from(String(offset + size)).toString("base64url") : null;
    return { elements: slice, metadata: next ? { nextPageToken: next } : {} };
  };

  /**
   * The scopes each app's products grant. The Ads app also signs in with OpenID Connect; the Social app
   * holds the Community Management API alone, whose permissions include `r_basicprofile` and no `openid`
   * or `profile` (LinkedIn lets no other product, Sign In with OpenID Connect included, sit beside it).
   */
  const scopesOf = (clientId: string | undefined): Set<string> | null => {
    if (clientId === state.clientId) return new Set(["r_ads", "r_ads_reporting", "openid", "profile", "email"]);
    if (clientId === state.socialClientId) {
      return new Set([
        "r_basicprofile",
        "r_organization_social",
        "w_organization_social",
        "rw_organization_admin",
        "r_organization_admin",
        "w_member_social",
      ]);
    }
    return null;
  };
  /** Whether a form's client id and secret are one of the two apps'. */
  const knownClient = (form: Record<string, string | undefined>) =>
    (form.client_id === state.clientId && form.client_secret === state.clientSecret) ||
    (form.client_id === state.socialClientId && form.client_secret === state.socialClientSecret);

  const registerOAuth = (app: FastifyInstance) => {
    app.get(`${LINKEDIN_PREFIX}/oauth/v2/authorization`, async (request, reply) => {
      const query = request.query as Record<string, string | undefined>;
      const allowed = scopesOf(query.client_id);
      if (!allowed || query.response_type !== "code") {
        return reply.code(400).type("text/html").send("<p>Invalid client_id or response_type.</p>");
      }
      let redirect: URL;
      try {
        redirect = new URL(query.redirect_uri ?? "");
      } catch {
        return reply.code(400).type("text/html").send("<p>The redirect_uri does not match the registered value.</p>");
      }
      if (query.state) redirect.searchParams.set("state", query.state);
      const asked = (query.scope ?? "").split(" ").filter(Boolean);
      const refused = asked.filter((scope) => !allowed.has(scope));
      if (refused.length > 0) {
        redirect.searchParams.set("error", "unauthorized_scope_error");
        redirect.searchParams.set("error_description", `Scope "${refused[0]}" is not authorized for your application`);
      } else if (state.deny) {
        state.deny = false;
        redirect.searchParams.set("error", "user_cancelled_authorize");
        redirect.searchParams.set("error_description", "The user cancelled the authorization");
      } else {
        const code = `AQTfakeCode${++counter}`;
        codes.set(code, {
          redirectUri: query.redirect_uri ?? "",
          scopes: new Set(asked),
          clientId: query.client_id ?? "",
        });
        redirect.searchParams.set("code", code);
      }
      return reply.redirect(redirect.toString(), 302);
    });

    app.post(`${LINKEDIN_PREFIX}/oauth/v2/accessToken`, async (request, reply) => {
      if (!String(request.headers["content-type"] ?? "").includes("application/x-www-form-urlencoded")) {
        return reply.code(400).send({ error: "invalid_request", error_description: "A form body is required" });
      }
      const form = (request.body ?? {}) as Record<string, string | undefined>;
      if (!knownClient(form)) {
        return reply.code(401).send({ error: "invalid_client", error_description: "Client authentication failed" });
      }
      const answer = (scopes: Set<string>, refresh?: { token: string; expiresAt: number }) => {
        const { access, expiresIn } = issue(scopes);
        return {
          access_token: access,
          expires_in: expiresIn,
          scope: [...scopes].join(","),
          ...(refresh && {
            refresh_token: refresh.token,
            refresh_token_expires_in: Math.round((refresh.expiresAt - Date.now()) / 1000),
          }),
        };
      };
      if (form.grant_type === "authorization_code") {
        const code = codes.get(form.code ?? "");
        codes.delete(form.code ?? "");
        if (!code || code.redirectUri !== form.redirect_uri || code.clientId !== form.client_id) {
          return reply.code(400).send({
            error: "invalid_request",
            error_description:
              "Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists",
          });
        }
        if (!state.issueRefreshTokens) return answer(code.scopes);
        const refresh = `AQXfakeRefresh${++counter}`;
        const expiresAt = Date.now() + 365 * DAY_MS;
        refreshTokens.set(refresh, {
          member: LINKEDIN_MEMBER.sub,
          scopes: code.scopes,
          expiresAt: 0,
          refreshExpiresAt: expiresAt,
        });
        return answer(code.scopes, { token: refresh, expiresAt });
      }
      if (form.grant_type === "refresh_token") {
        const refresh = refreshTokens.get(form.refresh_token ?? "");
        if (!refresh || refresh.refreshExpiresAt <= Date.now() || state.revoked.has(form.refresh_token ?? "")) {
          return reply.code(400).send({
            error: "invalid_grant",
            error_description: "The provided refresh token is invalid, expired or revoked",
          });
        }
        // LinkedIn answers the same refresh token, its lifetime counting down from the first grant.
        return answer(refresh.scopes, { token: form.refresh_token ?? "", expiresAt: refresh.refreshExpiresAt });
      }
      return reply.code(400).send({ error: "unsupported_grant_type", error_description: "Unsupported grant type" });
    });

    app.post(`${LINKEDIN_PREFIX}/oauth/v2/revoke`, async (request, reply) => {
      const form = (request.body ?? {}) as Record<string, string | undefined>;
      if (!knownClient(form)) {
        return reply.code(401).send({ error: "invalid_client", error_description: "Client authentication failed" });
      }
      if (form.token) state.revoked.add(form.token);
      return reply.code(200).send("");
    });

    // OpenID Connect userinfo (no LinkedIn-Version: it is not a versioned /rest resource).
    app.get(`${LINKEDIN_PREFIX}/v2/userinfo`, async (request, reply) => {
      const token = requireToken(request, reply);
      if (!token) return reply;
      if (!token.scopes.has("openid") || !token.scopes.has("profile")) return denied(reply, "userinfo");
      return {
        sub: LINKEDIN_MEMBER.sub,
        name: LINKEDIN_MEMBER.name,
        given_name: LINKEDIN_MEMBER.given,
        family_name: LINKEDIN_MEMBER.family,
        locale: { country: "US", language: "en" },
      };
    });

    // The Profile API's member (r_basicprofile or r_liteprofile; unversioned /v2, no LinkedIn-Version).
    app.get(`${LINKEDIN_PREFIX}/v2/me`, async (request, reply) => {
      const token = requireToken(request, reply);
      if (!token) return reply;
      if (!token.scopes.has("r_basicprofile") && !token.scopes.has("r_liteprofile")) return denied(reply, "me");
      return {
        id: LINKEDIN_MEMBER.sub,
        localizedFirstName: LINKEDIN_MEMBER.given,
        localizedLastName: LINKEDIN_MEMBER.family,
        firstName: { localized: { en_US: LINKEDIN_MEMBER.given }, preferredLocale: { country: "US", language: "en" } },
        lastName: { localized: { en_US: LINKEDIN_MEMBER.family }, preferredLocale: { country: "US", language: "en" } },
      };
    });
  };

  const registerRest = (scope: FastifyInstance) => {
    // Every versioned call: the token, the version header, the protocol header, then scripted faults.
    scope.addHook("preHandler", async (request, reply) => {
      const token = requireToken(request, reply);
      if (!token) return reply;
      const version = request.headers["linkedin-version"];
      if (typeof version !== "string" || version === "") {
        return liError(
          reply,
          400,
          "A version must be present. Please specify a version by adding the LinkedIn-Version header.",
          "VERSION_MISSING",
        );
      }
      if (!/^\d{6}$/.test(version) || version < state.oldestVersion || version > state.newestVersion) {
        return liError(reply, 426, `Requested version ${version} is not active`, "NONEXISTENT_VERSION");
      }
      if (request.headers["x-restli-protocol-version"] !== "2.0.0") {
        // Protocol 1.0 reads `List(…)` and records differently: the values make no sense to it.
        return liError(reply, 400, "Invalid query parameters passed to request", "ILLEGAL_ARGUMENT");
      }
      const fault = answerFault(state.failNext, reply, pathOf(request));
      if (fault) return fault;
      (request as FastifyRequest & { member?: Token }).member = token;
    });
    const memberOf = (request: FastifyRequest) => (request as FastifyRequest & { member?: Token }).member as Token;

    const ACCOUNTS_SCOPE = "r_ads";
    const account = (id: number) => LINKEDIN_ACCOUNTS.find((entry) => entry.id === id);
    const accountElement = (entry: (typeof LINKEDIN_ACCOUNTS)[number]) => ({
      id: entry.id,
      name: entry.name,
      currency: entry.currency,
      status: entry.status,
      type: "BUSINESS",
      reference: "urn:li:organization:2414183",
      test: false,
    });

    scope.get("/rest/adAccounts", async (request, reply) => {
      if (needsScope(reply, memberOf(request), ACCOUNTS_SCOPE, "adAccounts")) return reply;
      const query = rawQuery(request);
      if (query.get("q") !== "search")
        return liError(reply, 400, "Query parameter 'q' is required", "ILLEGAL_ARGUMENT");
      const visible = LINKEDIN_ACCOUNTS.filter((entry) => !state.lost.has(entry.id)).map(accountElement);
      return page(visible, query);
    });

    scope.get("/rest/adAccounts/:id", async (request, reply) => {
      if (needsScope(reply, memberOf(request), ACCOUNTS_SCOPE, "adAccounts")) return reply;
      const id = Number((request.params as { id: string }).id);
      const found = account(id);
      if (!found) return liError(reply, 404, `Not found: urn:li:sponsoredAccount:${id}`, "NOT_FOUND");
      if (state.lost.has(id)) return denied(reply, "adAccounts");
      return accountElement(found);
    });

    const entityRoute = <T>(path: string, finder: string, elements: (account: number) => readonly T[]) =>
      scope.get(`/rest/adAccounts/:id/${path}`, async (request, reply) => {
        if (needsScope(reply, memberOf(request), ACCOUNTS_SCOPE, path)) return reply;
        const id = Number((request.params as { id: string }).id);
        if (!account(id)) return liError(reply, 404, `Not found: urn:li:sponsoredAccount:${id}`, "NOT_FOUND");
        if (state.lost.has(id)) return denied(reply, path);
        const query = rawQuery(request);
        if (query.get("q") !== finder)
          return liError(reply, 400, `Query parameter 'q' must be ${finder}`, "ILLEGAL_ARGUMENT");
        return page(elements(id), query);
      });
    entityRoute("adCampaigns", "search", (id) =>
      LINKEDIN_CAMPAIGNS.filter((entry) => entry.account === id).map((entry) => ({
        id: entry.id,
        name: entry.name,
        status: entry.status,
        account: `urn:li:sponsoredAccount:${entry.account}`,
        campaignGroup: `urn:li:sponsoredCampaignGroup:${entry.group}`,
      })),
    );
    entityRoute("adCampaignGroups", "search", (id) =>
      LINKEDIN_GROUPS.filter((entry) => entry.account === id).map((entry) => ({
        id: entry.id,
        name: entry.name,
        status: "ACTIVE",
        account: `urn:li:sponsoredAccount:${entry.account}`,
      })),
    );
    entityRoute("creatives", "criteria", (id) =>
      LINKEDIN_CREATIVES.filter((entry) =>
        LINKEDIN_CAMPAIGNS.some((c) => c.id === entry.campaign && c.account === id),
      ).map((entry) => ({
        id: `urn:li:sponsoredCreative:${entry.id}`,
        campaign: `urn:li:sponsoredCampaign:${entry.campaign}`,
        ...(entry.name && { name: entry.name }),
      })),
    );

    const PIVOTS: Record<string, (creative: (typeof LINKEDIN_CREATIVES)[number]) => string> = {
      ACCOUNT: (creative) =>
        `urn:li:sponsoredAccount:${LINKEDIN_CAMPAIGNS.find((c) => c.id === creative.campaign)?.account}`,
      CAMPAIGN_GROUP: (creative) =>
        `urn:li:sponsoredCampaignGroup:${LINKEDIN_CAMPAIGNS.find((c) => c.id === creative.campaign)?.group}`,
      CAMPAIGN: (creative) => `urn:li:sponsoredCampaign:${creative.campaign}`,
      CREATIVE: (creative) => `urn:li:sponsoredCreative:${creative.id}`,
    };

    scope.get("/rest/adAnalytics", async (request, reply) => {
      if (needsScope(reply, memberOf(request), "r_ads_reporting", "partnerApiAdAnalytics")) return reply;
      const query = rawQuery(request);
      if (query.get("q") !== "analytics")
        return liError(reply, 400, "Query parameter 'q' must be analytics", "ILLEGAL_ARGUMENT");
      const pivot = query.get("pivot") ?? "";
      const pivotOf = PIVOTS[pivot];
      if (!pivotOf) return liError(reply, 400, `Invalid value for param: pivot (${pivot})`, "ILLEGAL_ARGUMENT");
      const granularity = query.get("timeGranularity");
      if (granularity !== "DAILY" && granularity !== "ALL") {
        return liError(reply, 400, "Invalid value for param: timeGranularity", "ILLEGAL_ARGUMENT");
      }
      const range = dateRangeOf(query.get("dateRange"));
      if (!range || range.start > range.end)
        return liError(reply, 400, "Invalid value for param: dateRange", "ILLEGAL_ARGUMENT");
      const accounts = listIds(query.get("accounts"), "sponsoredAccount");
      if (!accounts) return liError(reply, 400, "Invalid value for param: accounts", "ILLEGAL_ARGUMENT");
      const campaigns = query.has("campaigns") ? listIds(query.get("campaigns"), "sponsoredCampaign") : null;
      if (query.has("campaigns") && !campaigns) {
        return liError(reply, 400, "Invalid value for param: campaigns", "ILLEGAL_ARGUMENT");
      }
      for (const id of accounts) {
        if (!account(id) || state.lost.has(id)) return denied(reply, "partnerApiAdAnalytics");
      }
      // Without `fields` LinkedIn answers impressions and clicks only.
      const fields = query.has("fields")
        ? new Set(decodeURIComponent(query.get("fields") ?? "").split(","))
        : new Set(["impressions", "clicks"]);
      const creatives = LINKEDIN_CREATIVES.filter((creative) => {
        const campaign = LINKEDIN_CAMPAIGNS.find((c) => c.id === creative.campaign);
        return campaign && accounts.includes(campaign.account) && (!campaigns || campaigns.includes(campaign.id));
      });
      const days = daysFrom(range.start, range.end);
      // pivot value + bucket (day, or the whole range) → sums.
      type Bucket = { urn: string; start: string; end: string; sum: ReturnType<typeof fakeAdsSum> };
      const buckets = new Map<string, Bucket>();
      for (const creative of creatives) {
        for (const day of days) {
          const urn = pivotOf(creative);
          const start = granularity === "DAILY" ? day : range.start;
          const key = `${urn} ${start}`;
          const entry = buckets.get(key) ?? {
            urn,
            start,
            end: granularity === "DAILY" ? day : range.end,
            sum: fakeAdsSum([], []),
          };
          const one = fakeAdsDay(creative.id, day);
          entry.sum.impressions += one.impressions;
          entry.sum.clicks += one.clicks;
          entry.sum.cost = Math.round((entry.sum.cost + one.cost) * 100) / 100;
          entry.sum.conversions += one.conversions;
          entry.sum.leads += one.leads;
          buckets.set(key, entry);
        }
      }
      const all: Record<string, (entry: Bucket) => unknown> = {
        pivotValues: (entry) => [entry.urn],
        dateRange: (entry) => ({ start: dateRecord(entry.start), end: dateRecord(entry.end) }),
        impressions: (entry) => entry.sum.impressions,
        clicks: (entry) => entry.sum.clicks,
        costInLocalCurrency: (entry) => entry.sum.cost.toFixed(2),
        externalWebsiteConversions: (entry) => entry.sum.conversions,
        oneClickLeads: (entry) => entry.sum.leads,
      };
      const unknown = [...fields].filter((field) => !all[field]);
      if (unknown.length > 0)
        return liError(reply, 400, `Invalid value for param: fields (${unknown.join(",")})`, "ILLEGAL_ARGUMENT");
      // No paging: every element in one answer.
      return {
        paging: { start: 0, count: 10, links: [] },
        elements: [...buckets.values()].map((entry) =>
          Object.fromEntries([...fields].map((field) => [field, all[field]?.(entry)])),
        ),
      };
    });

    // Community management: the member's organizations and their statistics.
    scope.get("/rest/organizationAcls", async (request, reply) => {
      if (needsScope(reply, memberOf(request), "rw_organization_admin", "organizationAcls")) return reply;
      const query = rawQuery(request);
      if (query.get("q") !== "roleAssignee")
        return liError(reply, 400, "Query parameter 'q' must be roleAssignee", "ILLEGAL_ARGUMENT");
      const role = query.get("role");
      const status = query.get("state");
      const matching = LINKEDIN_ORGANIZATIONS.filter(
        (entry) => (!role || entry.role === role) && (!status || status === "APPROVED") && !state.lost.has(entry.id),
      ).map((entry) => ({
        organization: `urn:li:organization:${entry.id}`,
        role: entry.role,
        state: "APPROVED",
        roleAssignee: `urn:li:person:${LINKEDIN_MEMBER.sub}`,
      }));
      const start = Number(query.get("start") ?? 0);
      const count = Math.min(Number(query.get("count") ?? 10), state.pageSize);
      return { paging: { start, count, total: matching.length }, elements: matching.slice(start, start + count) };
    });

    scope.get("/rest/organizations/:id", async (request, reply) => {
      const id = Number((request.params as { id: string }).id);
      const found = LINKEDIN_ORGANIZATIONS.find((entry) => entry.id === id);
      if (!found) return liError(reply, 404, `Not found: urn:li:organization:${id}`, "NOT_FOUND");
      return { id: found.id, localizedName: found.name, vanityName: found.vanity };
    });

    /** A time-bound organization statistics finder: the organization's days within the past 12 months. */
    const statisticsRoute = (
      path: string,
      finder: string,
      element: (id: number, day: string, start: number) => Record<string, unknown>,
    ) =>
      scope.get(`/rest/${path}`, async (request, reply) => {
        if (needsScope(reply, memberOf(request), "rw_organization_admin", path)) return reply;
        const query = rawQuery(request);
        if (query.get("q") !== finder)
          return liError(reply, 400, `Query parameter 'q' must be ${finder}`, "ILLEGAL_ARGUMENT");
        const urn = /^urn:li:organization:(\d+)$/.exec(decodeURIComponent(query.get(finder) ?? ""));
        if (!urn?.[1]) return liError(reply, 400, `Invalid value for param: ${finder}`, "ILLEGAL_ARGUMENT");
        const id = Number(urn[1]);
        const organization = LINKEDIN_ORGANIZATIONS.find((entry) => entry.id === id);
        if (organization?.role !== "ADMINISTRATOR" || state.lost.has(id)) return denied(reply, path);
        const intervals = intervalsOf(query.get("timeIntervals"));
        if (intervals?.granularity !== "DAY" || intervals.start >= intervals.end) {
          return liError(reply, 400, "Invalid value for param: timeIntervals", "ILLEGAL_ARGUMENT");
        }
        const yearAgo = new Date();
        yearAgo.setUTCFullYear(yearAgo.getUTCFullYear() - 1);
        if (intervals.start < yearAgo.getTime()) {
          return liError(
            reply,
            400,
            "Invalid timeIntervals: the start of the time range must be within the past 12 months",
            "ILLEGAL_ARGUMENT",
          );
        }
        const elements = [];
        for (let start = intervals.start; start < intervals.end && start <= Date.now(); start += DAY_MS) {
          elements.push({ ...element(id, dayOfMs(start), start), timeRange: { start, end: start + DAY_MS } });
        }
        return { paging: { start: 0, count: 10, links: [] }, elements };
      });
    statisticsRoute("organizationalEntityShareStatistics", "organizationalEntity", (id, day) => {
      const stats = fakeShareDay(id, day);
      const engagement =
        (stats.clickCount + stats.likeCount + stats.commentCount + stats.shareCount) / stats.impressionCount;
      return { organizationalEntity: `urn:li:organization:${id}`, totalShareStatistics: { ...stats, engagement } };
    });
    statisticsRoute("organizationalEntityFollowerStatistics", "organizationalEntity", (id, day) => ({
      organizationalEntity: `urn:li:organization:${id}`,
      followerGains: fakeFollowerDay(id, day),
    }));
    statisticsRoute("organizationPageStatistics", "organization", (id, day) => {
      const views = fakePageDay(id, day);
      return {
        organization: `urn:li:organization:${id}`,
        totalPageStatistics: {
          views: {
            allPageViews: { pageViews: views.desktop + views.mobile },
            allDesktopPageViews: { pageViews: views.desktop },
            allMobilePageViews: { pageViews: views.mobile },
          },
          clicks: {},
        },
      };
    });
  };

  return {
    state,
    env: (origin) => ({
      LINKEDIN_ADS_CLIENT_ID: state.clientId,
      LINKEDIN_ADS_CLIENT_SECRET: state.clientSecret,
      LINKEDIN_SOCIAL_CLIENT_ID: state.socialClientId,
      LINKEDIN_SOCIAL_CLIENT_SECRET: state.socialClientSecret,
      LINKEDIN_AUTH_URL: `${origin}${LINKEDIN_PREFIX}`,
      LINKEDIN_API_URL: `${origin}${LINKEDIN_PREFIX}`,
      LINKEDIN_VERSION: "202610",
    }),
    async register(app, shared) {
      state.calls = shared.calls;
      registerOAuth(app);
      await app.register(async (scope) => registerRest(scope), { prefix: LINKEDIN_PREFIX });
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "linkedin",
  build: () => linkedinFake(),
};
