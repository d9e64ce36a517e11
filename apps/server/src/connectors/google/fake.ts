import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type FakeCall, type FakeEntry, type FakeFault, type FakePart, startFakes } from "../../../test/fakes/app";
import { answerFault } from "../../../test/fakes/kit";
import { searchConsoleFake } from "../searchConsole/fake";

/** Search Console lives in ./search-console.ts; re-exported for the tests that read its numbers from here. */
export { fakeSearch } from "../searchConsole/fake";

/**
 * Google's OAuth endpoints, the Analytics Admin API's `accountSummaries` and `dataStreams`, the Analytics Data API's
 * `metadata`, `runReport` and `runRealtimeReport`, on 127.0.0.1, answering in the documented shapes
 * (docs/connectors.md). Consent is given at once (or refused, `deny`); PKCE, the client secret, the
 * redirect address and the bearer token are checked as Google checks them. `failNext` scripts faults
 * for the Data API (over HTTP too: `POST /_fake/fail`, ./app.ts). Each report spends tokens of its
 * property's allowances and answers the `propertyQuota` Google sends; unknown metrics and dimensions
 * are refused with 400 INVALID_ARGUMENT naming the field, as Google refuses them. Pages followed:
 * - OAuth 2.0 for web server applications: https://developers.google.com/identity/protocols/oauth2/web-server
 * - Data API runReport: https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/runReport
 * - Data API metadata: https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/getMetadata
 *   (metric types: https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/MetricType ;
 *   metric names, key-event rates and custom metrics: https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema)
 * - Data API runRealtimeReport: https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/runRealtimeReport
 * - quotas and PropertyQuota: https://developers.google.com/analytics/devguides/reporting/data/v1/quotas ,
 *   https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/PropertyQuota
 * - Admin API accountSummaries: https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/accountSummaries/list
 * - Admin API dataStreams: https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/properties.dataStreams/list
 */
export interface FakeGoogle {
  url: string;
  clientId: string;
  clientSecret: string;
  /** The env a server needs to use this fake. */
  env: Record<string, string>;
  /** The user refuses consent on the next authorisation. */
  deny: boolean;
  /** GA4 properties whose reports answer 503 until removed (an outage of one property). */
  down: Set<string>;
  /** Answers the next Data API calls with these statuses and bodies first. */
  failNext: FakeFault[];
  /** How long every `runReport` waits before answering (ms; 0 by default), so concurrency can be observed. */
  reportLatencyMs: number;
  /**
   * GA4 counts a user once per date range, however many of its days they came back on: with a share
   * above 0, a range's `activeUsers` / `totalUsers` (not per day) are the days' sum less that share of
   * everything beyond the busiest day. 0 (the default) adds the days up, which other tests recompute.
   */
  returningUserShare: number;
  /**
   * Sets what is left of a property's token allowances (Core by default; Realtime is a pool of its own).
   * Allowances not named keep their count. What was used is the allowance minus what is left.
   */
  setRemainingTokens(property: string, left: Partial<Record<TokenPool, number>>, category?: "core" | "realtime"): void;
  /** A property's token allowances now, in the shape Google reports them. */
  propertyQuota(
    property: string,
    category?: "core" | "realtime",
  ): Record<string, { consumed: number; remaining: number }>;
  /** Per GA4 property, the `runReport` requests being answered right now. */
  inFlight: Map<string, number>;
  /** Per GA4 property, the most `runReport` requests ever answered at once. */
  maxInFlight: Map<string, number>;
  /** Every request to the fakes app, in order. */
  calls: FakeCall[];
  /** Refresh tokens revoked (by /revoke, or by the test to play an expired grant). */
  revoked: Set<string>;
  /** Makes every access token handed out so far expire now. */
  expireAccessTokens(): void;
  /** True for an `Authorization` header carrying a live access token (every Google part checks with it). */
  authorized(header: string | string[] | undefined): boolean;
  close(): Promise<void>;
}

const ACCOUNTS = [
  {
    name: "accountSummaries/1001",
    account: "accounts/1001",
    displayName: "Acme Agency",
    propertySummaries: [
      {
        property: "properties/2001",
        displayName: "acme.com – GA4",
        propertyType: "PROPERTY_TYPE_ORDINARY",
        parent: "accounts/1001",
      },
      {
        property: "properties/2002",
        displayName: "shop.acme.com",
        propertyType: "PROPERTY_TYPE_ORDINARY",
        parent: "accounts/1001",
      },
    ],
  },
  {
    name: "accountSummaries/1002",
    account: "accounts/1002",
    displayName: "Client Two",
    // Tests that use up a property's quota use these, so the hold does not reach the others.
    propertySummaries: ["2003", "2004"].map((id) => ({
      property: `properties/${id}`,
      displayName: `client-two.example (${id})`,
      propertyType: "PROPERTY_TYPE_ORDINARY",
      parent: "accounts/1002",
    })),
  },
];

/** The property's standard metrics, named as Google names them since key events replaced conversions (2024). */
const STANDARD_METRICS = [
  { apiName: "sessions", uiName: "Sessions", type: "TYPE_INTEGER", category: "Session" },
  { apiName: "totalUsers", uiName: "Total users", type: "TYPE_INTEGER", category: "User" },
  { apiName: "bounceRate", uiName: "Bounce rate", type: "TYPE_FLOAT", category: "Session" },
  { apiName: "engagementRate", uiName: "Engagement rate", type: "TYPE_FLOAT", category: "Session" },
  {
    apiName: "averageSessionDuration",
    uiName: "Average session duration",
    type: "TYPE_SECONDS",
    category: "Session",
  },
  { apiName: "totalRevenue", uiName: "Total revenue", type: "TYPE_CURRENCY", category: "Revenue" },
  { apiName: "activeUsers", uiName: "Active users", type: "TYPE_INTEGER", category: "User" },
  { apiName: "keyEvents", uiName: "Key events", type: "TYPE_FLOAT", category: "Event" },
  { apiName: "sessionKeyEventRate", uiName: "Session key event rate", type: "TYPE_FLOAT", category: "Session" },
  { apiName: "userKeyEventRate", uiName: "User key event rate", type: "TYPE_FLOAT", category: "User" },
];

/**
 * Each property's own metrics, listed by its metadata as Google lists them: one `keyEvents:{event}` and
 * one `sessionKeyEventRate:{event}` per key event, and its registered custom metrics
 * (`customEvent:{parameter}`, typed by the property's admin: standard, currency, distance or time).
 * 2002 is a shop: a `purchase` key event, a basket value in its currency and a delivery time in minutes.
 */
const PROPERTY_METRICS: Record<string, { apiName: string; uiName: string; type: string; category: string }[]> = {
  "2002": [
    { apiName: "keyEvents:purchase", uiName: "Key events (purchase)", type: "TYPE_FLOAT", category: "Event" },
    {
      apiName: "sessionKeyEventRate:purchase",
      uiName: "Session key event rate (purchase)",
      type: "TYPE_FLOAT",
      category: "Session",
    },
    { apiName: "customEvent:basket_value", uiName: "Basket value", type: "TYPE_CURRENCY", category: "Custom" },
    { apiName: "customEvent:delivery_time", uiName: "Delivery time", type: "TYPE_MINUTES", category: "Custom" },
  ],
};

const DIMENSIONS = [
  { apiName: "date", uiName: "Date", category: "Time" },
  { apiName: "sessionDefaultChannelGroup", uiName: "Session default channel group", category: "Traffic source" },
  { apiName: "country", uiName: "Country", category: "Geography" },
];

/** `properties/{id}/metadata` as Google answers it: the standard fields and the property's own. */
function metadataOf(property: string) {
  const own = (PROPERTY_METRICS[property] ?? []).map((metric) => ({
    ...metric,
    ...(metric.apiName.startsWith("customEvent:") && {
      description: "An event scoped custom metric for your Analytics property.",
      customDefinition: true,
    }),
  }));
  return { name: `properties/${property}/metadata`, dimensions: DIMENSIONS, metrics: [...STANDARD_METRICS, ...own] };
}

/** A metric's type on a property (undefined: the property has no such metric). */
const typeOf = (metric: string, property: string): string | undefined =>
  [...STANDARD_METRICS, ...(PROPERTY_METRICS[property] ?? [])].find((entry) => entry.apiName === metric)?.type;

/**
 * Each property's data streams (Admin API `properties/{id}/dataStreams`): web streams carry their site's
 * `defaultUri`, app streams a package or bundle id instead. 2001 is acme.com's (its web stream at www.),
 * 2002 a shop subdomain's, 2004 an app's only.
 */
const DATA_STREAMS: Record<string, { id: string; type: string; displayName: string; uri?: string; app?: string }[]> = {
  "2001": [
    { id: "3001", type: "WEB_DATA_STREAM", displayName: "acme.com", uri: "https://www.acme.com" },
    { id: "3002", type: "IOS_APP_DATA_STREAM", displayName: "Acme iOS", app: "com.acme.ios" },
  ],
  "2002": [{ id: "3003", type: "WEB_DATA_STREAM", displayName: "Shop", uri: "https://shop.acme.com/" }],
  "2003": [{ id: "3004", type: "WEB_DATA_STREAM", displayName: "Client two", uri: "https://client-two.example" }],
  "2004": [{ id: "3005", type: "ANDROID_APP_DATA_STREAM", displayName: "Client two app", app: "example.client.two" }],
};

/** The documented DataStream resource (webStreamData / androidAppStreamData / iosAppStreamData by type). */
function dataStreams(property: string) {
  return (DATA_STREAMS[property] ?? []).map((stream) => ({
    name: `properties/${property}/dataStreams/${stream.id}`,
    type: stream.type,
    displayName: stream.displayName,
    createTime: "2024-03-01T10:00:00.000Z",
    updateTime: "2024-03-01T10:00:00.000Z",
    ...(stream.type === "WEB_DATA_STREAM"
      ? { webStreamData: { measurementId: `G-FAKE${stream.id}`, defaultUri: stream.uri } }
      : stream.type === "IOS_APP_DATA_STREAM"
        ? { iosAppStreamData: { firebaseAppId: `1:${stream.id}:ios:fake`, bundleId: stream.app } }
        : { androidAppStreamData: { firebaseAppId: `1:${stream.id}:android:fake`, packageName: stream.app } }),
  }));
}

const CHANNELS = ["Organic Search", "Direct", "Referral"];

/** A metric's value for one day (yyyymmdd) of one property: fixed numbers a test can recompute. */
export function fakeValue(metric: string, day: string, property: string): number {
  const n = Number(day.slice(6)) + (Number(property) % 7);
  switch (metric) {
    case "sessions":
      return 100 + n;
    case "totalUsers":
      return 80 + n;
    case "bounceRate":
      return 0.4;
    case "averageSessionDuration":
      return 95.5;
    case "totalRevenue":
      return 12.5 * n;
    case "activeUsers":
      return 70 + n;
    case "keyEvents":
      return 2 + (n % 5);
    case "engagementRate":
      return 0.6;
    case "sessionKeyEventRate":
      return 0.05;
    case "userKeyEventRate":
      return 0.08;
    case "keyEvents:purchase":
      return 1 + (n % 3);
    case "sessionKeyEventRate:purchase":
      return 0.02;
    case "customEvent:basket_value":
      return 40 + n;
    case "customEvent:delivery_time":
      return 90;
    default:
      return 0;
  }
}

function days(start: string, end: string): string[] {
  const out: string[] = [];
  for (let at = Date.parse(`${start}T00:00:00Z`); at <= Date.parse(`${end}T00:00:00Z`); at += 86_400_000) {
    out.push(new Date(at).toISOString().slice(0, 10).replace(/-/g, ""));
  }
  return out;
}

const DIMENSION_NAMES = new Set(DIMENSIONS.map((dimension) => dimension.apiName));
/** The Realtime API's own schema (a subset): https://developers.google.com/analytics/devguides/reporting/data/v1/realtime-api-schema */
const REALTIME_DIMENSIONS = new Set(["minutesAgo", "country", "deviceCategory", "unifiedScreenName"]);
const REALTIME_METRICS = new Set(["activeUsers", "screenPageViews", "eventCount", "keyEvents"]);

/** A standard property's token allowances (PropertyQuota): per day, per hour, per project and property per hour. */
type TokenPool = "tokensPerDay" | "tokensPerHour" | "tokensPerProjectPerHour";
const TOKEN_LIMITS: Record<TokenPool, number> = {
  tokensPerDay: 200_000,
  tokensPerHour: 40_000,
  tokensPerProjectPerHour: 14_000,
};
/** What one report costs here. Google: "most requests consume fewer than 10 tokens". */
export const FAKE_REPORT_TOKENS = 5;

/** The first field of a report request Google would not know, with the kind Google names in its refusal. */
function unknownField(
  body: ReportRequest,
  realtime: boolean,
  property: string,
): { name: string; kind: "metric" | "dimension" } | null {
  const known = (name: string) => (realtime ? REALTIME_METRICS.has(name) : typeOf(name, property) !== undefined);
  const dimensions = realtime ? REALTIME_DIMENSIONS : DIMENSION_NAMES;
  const metric = (body.metrics ?? []).find((entry) => !known(entry.name));
  if (metric) return { name: metric.name, kind: "metric" };
  const named = [
    ...(body.dimensions ?? []).map((entry) => entry.name),
    ...(body.dimensionFilter?.filter?.fieldName ? [body.dimensionFilter.filter.fieldName] : []),
  ];
  const dimension = named.find((name) => !dimensions.has(name));
  return dimension ? { name: dimension, kind: "dimension" } : null;
}
/** Rates and averages: a range's value is the days' mean here, never their sum. */
const AVERAGES = new Set([
  "bounceRate",
  "engagementRate",
  "averageSessionDuration",
  "sessionKeyEventRate",
  "userKeyEventRate",
  "sessionKeyEventRate:purchase",
  "customEvent:delivery_time",
]);

interface ReportRequest {
  dateRanges?: { startDate: string; endDate: string }[];
  metrics?: { name: string }[];
  dimensions?: { name: string }[];
  dimensionFilter?: { filter?: { fieldName?: string } };
  returnPropertyQuota?: boolean;
}

const USER_COUNTS = new Set(["activeUsers", "totalUsers"]);

function runReport(property: string, body: ReportRequest, returningUserShare = 0) {
  const range = body.dateRanges?.[0] ?? { startDate: "", endDate: "" };
  const metrics: string[] = (body.metrics ?? []).map((metric) => metric.name);
  const dimension: string | undefined = body.dimensions?.[0]?.name;
  const list = days(range.startDate, range.endDate);
  const total = (metric: string, subset: string[]) => {
    const values = subset.map((day) => fakeValue(metric, day, property));
    const sum = values.reduce((acc, value) => acc + value, 0);
    if (USER_COUNTS.has(metric) && returningUserShare > 0 && values.length > 1) {
      const busiest = Math.max(...values);
      return Math.round(sum - returningUserShare * (sum - busiest));
    }
    return AVERAGES.has(metric) ? sum / Math.max(1, subset.length) : sum;
  };
  const rows =
    dimension === "date"
      ? list.map((day) => ({
          dimensionValues: [{ value: day }],
          metricValues: metrics.map((m) => ({ value: String(total(m, [day])) })),
        }))
      : dimension
        ? CHANNELS.map((channel, index) => ({
            dimensionValues: [{ value: channel }],
            metricValues: metrics.map((m) => ({
              value: String(AVERAGES.has(m) ? total(m, list) : Math.round(total(m, list) / (index + 2))),
            })),
          }))
        : [{ dimensionValues: [], metricValues: metrics.map((m) => ({ value: String(total(m, list)) })) }];
  return {
    dimensionHeaders: dimension ? [{ name: dimension }] : [],
    metricHeaders: metrics.map((name) => ({ name, type: typeOf(name, property) ?? "TYPE_INTEGER" })),
    rows,
    totals: [
      {
        dimensionValues: dimension ? [{ value: "RESERVED_TOTAL" }] : [],
        metricValues: metrics.map((m) => ({ value: String(total(m, list)) })),
      },
    ],
    rowCount: rows.length,
    metadata: { currencyCode: "EUR", timeZone: "Europe/Berlin" },
    kind: "analyticsData#runReport",
  };
}

/**
 * Google's OAuth endpoints and Analytics (Admin and Data API, realtime included), as a part of the
 * fakes app (./app.ts). Other Google parts (Search Console, Ads, Business Profile, Sheets) check their
 * bearer tokens with `state.authorized`: one Google account, one token for every Google API.
 */
export function googleFake(): FakePart<FakeGoogle> {
  const codes = new Map<string, { challenge: string; redirectUri: string; scope: string }>();
  const accessTokens = new Map<string, { expiresAt: number }>();
  const issuedRefresh = new Set<string>();
  let counter = 0;
  // Tokens used per `${category}:${property}` and allowance; nothing rolls over (tests are short, and a
  // test that wants a fresh hour sets what is left).
  const used = new Map<string, Record<TokenPool, number>>();
  const usedOf = (property: string, category: string) => {
    const key = `${category}:${property}`;
    let entry = used.get(key);
    if (!entry) {
      entry = { tokensPerDay: 0, tokensPerHour: 0, tokensPerProjectPerHour: 0 };
      used.set(key, entry);
    }
    return entry;
  };
  const state: FakeGoogle = {
    url: "",
    clientId: "fake-client-id.apps.googleusercontent.com",
    clientSecret: "fake-client-secret",
    env: {},
    deny: false,
    failNext: [],
    reportLatencyMs: 0,
    returningUserShare: 0,
    setRemainingTokens(property, left, category = "core") {
      const entry = usedOf(property, category);
      for (const pool of Object.keys(TOKEN_LIMITS) as TokenPool[]) {
        const remaining = left[pool];
        if (remaining !== undefined) entry[pool] = Math.max(0, TOKEN_LIMITS[pool] - remaining);
      }
    },
    propertyQuota(property, category = "core") {
      const entry = usedOf(property, category);
      const status = (pool: TokenPool) => ({
        consumed: entry[pool],
        remaining: Math.max(0, TOKEN_LIMITS[pool] - entry[pool]),
      });
      return {
        tokensPerDay: status("tokensPerDay"),
        tokensPerHour: status("tokensPerHour"),
        concurrentRequests: { consumed: 0, remaining: 10 },
        serverErrorsPerProjectPerHour: { consumed: 0, remaining: 10 },
        potentiallyThresholdedRequestsPerHour: { consumed: 0, remaining: 120 },
        tokensPerProjectPerHour: status("tokensPerProjectPerHour"),
      };
    },
    inFlight: new Map(),
    maxInFlight: new Map(),
    calls: [],
    revoked: new Set(),
    down: new Set(),
    expireAccessTokens() {
      for (const token of accessTokens.values()) token.expiresAt = 0;
    },
    authorized(header) {
      const token = /^Bearer (.+)$/.exec(Array.isArray(header) ? (header[0] ?? "") : (header ?? ""))?.[1];
      const entry = token ? accessTokens.get(token) : undefined;
      return entry !== undefined && entry.expiresAt > Date.now();
    },
    close: async () => {},
  };
  const issueAccess = () => {
    counter += 1;
    const token = `ya29.fake-access-${counter}`;
    accessTokens.set(token, { expiresAt: Date.now() + 3599_000 });
    return token;
  };
  const googleError = (reply: FastifyReply, code: number, status: string, message: string) =>
    reply.code(code).send({ error: { code, message, status } });
  /**
   * Spends one report's tokens of every allowance of the property, or refuses as Google does when one
   * is used up (429 RESOURCE_EXHAUSTED naming it; nothing is spent). The quota as Google reports it after.
   */
  const spendTokens = (reply: FastifyReply, property: string, category: "core" | "realtime") => {
    const entry = usedOf(property, category);
    const words: Record<TokenPool, string> = {
      tokensPerDay: "tokens per day",
      tokensPerHour: "tokens per hour",
      tokensPerProjectPerHour: "tokens per project per hour",
    };
    const short = (Object.keys(TOKEN_LIMITS) as TokenPool[]).find(
      (pool) => TOKEN_LIMITS[pool] - entry[pool] < FAKE_REPORT_TOKENS,
    );
    if (short) {
      return {
        refused: googleError(reply, 429, "RESOURCE_EXHAUSTED", `Exhausted property ${words[short]} quota.`),
      };
    }
    for (const pool of Object.keys(TOKEN_LIMITS) as TokenPool[]) entry[pool] += FAKE_REPORT_TOKENS;
    return { quota: state.propertyQuota(property, category) };
  };
  const invalidField = (reply: FastifyReply, body: ReportRequest, realtime: boolean, property: string) => {
    const unknown = unknownField(body, realtime, property);
    if (!unknown) return null;
    return googleError(
      reply,
      400,
      "INVALID_ARGUMENT",
      `Field ${unknown.name} is not a valid ${unknown.kind}. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema`,
    );
  };
  // A fault may name the path it is for (`pathIncludes`): a retry still running in the background from an
  // earlier test, for another property, must not take the fault a test scripted for its own request.
  const fault = (request: FastifyRequest, reply: FastifyReply) => {
    return answerFault(state.failNext, reply, request.url);
  };

  return {
    state,
    env: (origin) => ({
      GOOGLE_CLIENT_ID: state.clientId,
      GOOGLE_CLIENT_SECRET: state.clientSecret,
      GOOGLE_AUTH_URL: `${origin}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${origin}/token`,
      GOOGLE_REVOKE_URL: `${origin}/revoke`,
      GA4_DATA_API_URL: origin,
      GA4_ADMIN_API_URL: origin,
    }),
    register(app, shared) {
      state.calls = shared.calls;
      app.get("/o/oauth2/v2/auth", async (request, reply) => {
        const query = request.query as Record<string, string | undefined>;
        const redirect = new URL(query.redirect_uri ?? "");
        redirect.searchParams.set("state", query.state ?? "");
        if (query.client_id !== state.clientId) {
          redirect.searchParams.set("error", "invalid_client");
        } else if (state.deny) {
          state.deny = false;
          redirect.searchParams.set("error", "access_denied");
        } else {
          const code = `4/fake-code-${++counter}`;
          codes.set(code, {
            challenge: query.code_challenge ?? "",
            redirectUri: query.redirect_uri ?? "",
            scope: query.scope ?? "",
          });
          redirect.searchParams.set("code", code);
          redirect.searchParams.set("scope", query.scope ?? "");
        }
        return reply.redirect(redirect.toString(), 302);
      });

      app.post("/token", async (request, reply) => {
        const form = (request.body ?? {}) as Record<string, string | undefined>;
        if (form.client_id !== state.clientId || form.client_secret !== state.clientSecret) {
          return reply
            .code(401)
            .send({ error: "invalid_client", error_description: "The OAuth client was not found." });
        }
        if (form.grant_type === "authorization_code") {
          const code = codes.get(form.code ?? "");
          codes.delete(form.code ?? "");
          const challenge = createHash("sha256")
            .update(form.code_verifier ?? "")
            .digest("base64url");
          if (!code || code.challenge !== challenge || code.redirectUri !== form.redirect_uri) {
            return reply.code(400).send({ error: "invalid_grant", error_description: "Malformed auth code." });
          }
          const claims = Buffer.from(JSON.stringify({ email: "analytics@acme.example", sub: "1234" })).toString(
            "base64url",
          );
          const refreshToken = `1//fake-refresh-${counter}`;
          issuedRefresh.add(refreshToken);
          return {
            access_token: issueAccess(),
            expires_in: 3599,
            refresh_token: refreshToken,
            scope: code.scope,
            token_type: "Bearer",
            id_token: `eyJhbGciOiJub25lIn0.${claims}.`,
          };
        }
        if (form.grant_type === "refresh_token") {
          if (state.revoked.has(form.refresh_token ?? "")) {
            return reply
              .code(400)
              .send({ error: "invalid_grant", error_description: "Token has been expired or revoked." });
          }
          return { access_token: issueAccess(), expires_in: 3599, token_type: "Bearer" };
        }
        return reply.code(400).send({ error: "unsupported_grant_type" });
      });

      // The browser tests' switch (the fake runs in its own process there): the user removes our access
      // in their Google account, which ends every grant and every access token at once.
      app.post("/_fake/google/revoke-all", async () => {
        for (const token of issuedRefresh) state.revoked.add(token);
        state.expireAccessTokens();
        return { revoked: issuedRefresh.size };
      });

      app.post("/revoke", async (request) => {
        state.revoked.add(((request.body ?? {}) as Record<string, string>).token ?? "");
        return {};
      });

      // Every API below wants a live bearer token.
      const guarded = async (request: FastifyRequest, reply: FastifyReply) => {
        if (!state.authorized(request.headers.authorization)) {
          return googleError(reply, 401, "UNAUTHENTICATED", "Request had invalid authentication credentials.");
        }
      };

      // Analytics' resource names carry a colon verb (`properties/1:runReport`): one route, matched here.
      app.all("/v1beta/*", { preHandler: guarded }, async (request, reply) => {
        const path = decodeURIComponent(new URL(request.url, "http://fake").pathname);
        if (path === "/v1beta/accountSummaries") return { accountSummaries: ACCOUNTS };
        const streams = /^\/v1beta\/properties\/(\d+)\/dataStreams$/.exec(path);
        if (streams && request.method === "GET") {
          const property = streams[1] ?? "";
          if (!(property in DATA_STREAMS)) {
            return googleError(
              reply,
              403,
              "PERMISSION_DENIED",
              "User does not have sufficient permissions for this property.",
            );
          }
          const pageSize = (request.query as Record<string, string | undefined>).pageSize;
          if (pageSize !== undefined && !(Number(pageSize) >= 0)) {
            return googleError(reply, 400, "INVALID_ARGUMENT", "page_size must be positive");
          }
          // Every stream fits one page (Google pages by 50, at most 200): no nextPageToken.
          return { dataStreams: dataStreams(property) };
        }
        const metadata = /^\/v1beta\/properties\/(\d+)\/metadata$/.exec(path);
        if (metadata) return metadataOf(metadata[1] ?? "");
        const body = (request.body ?? {}) as ReportRequest;
        const realtime = /^\/v1beta\/properties\/(\d+):runRealtimeReport$/.exec(path);
        if (realtime && request.method === "POST") {
          const invalid = invalidField(reply, body, true, realtime[1] ?? "");
          if (invalid) return invalid;
          const spent = spendTokens(reply, realtime[1] ?? "", "realtime");
          if (spent.refused) return spent.refused;
          return { ...realtimeReport(body), ...(body.returnPropertyQuota && { propertyQuota: spent.quota }) };
        }
        const report = /^\/v1beta\/properties\/(\d+):runReport$/.exec(path);
        if (report && request.method === "POST") {
          const property = report[1] ?? "";
          const now = (state.inFlight.get(property) ?? 0) + 1;
          state.inFlight.set(property, now);
          state.maxInFlight.set(property, Math.max(now, state.maxInFlight.get(property) ?? 0));
          try {
            if (state.reportLatencyMs > 0) await new Promise((resolve) => setTimeout(resolve, state.reportLatencyMs));
            const failed = fault(request, reply);
            if (failed) return failed;
            if (state.down.has(property)) {
              return googleError(reply, 503, "UNAVAILABLE", "The service is currently unavailable.");
            }
            // 2005–2009 are in no account's list: properties a test may take down or run out of tokens
            // alone (see ga4.test.ts).
            if (!["2001", "2002", "2003", "2004", "2005", "2006", "2007", "2008", "2009"].includes(property)) {
              return googleError(
                reply,
                403,
                "PERMISSION_DENIED",
                "User does not have sufficient permissions for this property.",
              );
            }
            const invalid = invalidField(reply, body, false, property);
            if (invalid) return invalid;
            const spent = spendTokens(reply, property, "core");
            if (spent.refused) return spent.refused;
            return {
              ...runReport(property, body, state.returningUserShare),
              ...(body.returnPropertyQuota && { propertyQuota: spent.quota }),
            };
          } finally {
            state.inFlight.set(property, (state.inFlight.get(property) ?? 1) - 1);
          }
        }
        return googleError(reply, 404, "NOT_FOUND", "Not found");
      });
    },
  };
}

function realtimeReport(body: ReportRequest) {
  const metrics = (body.metrics ?? []).map((metric) => metric.name);
  const dimension = body.dimensions?.[0]?.name;
  const rows = dimension
    ? ["Germany", "France", "Spain"].map((country, index) => ({
        dimensionValues: [{ value: country }],
        metricValues: metrics.map((_, m) => ({ value: String((3 - index) * (m + 1) * 4) })),
      }))
    : [];
  return {
    dimensionHeaders: dimension ? [{ name: dimension }] : [],
    metricHeaders: metrics.map((name) => ({ name, type: "TYPE_INTEGER" })),
    rows,
    totals: [{ metricValues: metrics.map((_, m) => ({ value: String(24 * (m + 1)) })) }],
    rowCount: rows.length,
    kind: "analyticsData#runRealtimeReport",
  };
}

/** The Google part, with Search Console, on its own server (tests of the Google connectors that need nothing else). */
export async function startFakeGoogle(port = 0): Promise<FakeGoogle> {
  const part = googleFake();
  // Search Console rides along (the campaigns' connected tests start "the fake Google" for it), taking
  // its scripted faults from the Google list as it did when it was part of this file.
  const searchConsole = searchConsoleFake(part.state);
  searchConsole.state.failNext = part.state.failNext;
  const running = await startFakes({ google: part, searchConsole }, port);
  part.state.url = running.url;
  part.state.env = running.env;
  part.state.close = running.close;
  return part.state;
}

/**
 * One fake Google per test file, started on first use and closed after the file's tests: pass
 * `google.env` to describeEachDb's env factory and read `google.current()` in the tests.
 */
export function fakeGoogleForFile(afterAll: (fn: () => Promise<void>) => void) {
  let fake: FakeGoogle | null = null;
  const current = async (): Promise<FakeGoogle> => {
    fake ??= await startFakeGoogle();
    return fake;
  };
  afterAll(async () => {
    await fake?.close();
  });
  return { current, env: async () => ({ ...(await current()).env }), calls: () => fake?.calls ?? [] };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "google",
  build: () => googleFake(),
};
