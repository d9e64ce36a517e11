import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeEntry } from "../../../test/fakes/app";
import { type FakeCall, type FakeFault, type FakePart, sendFault } from "../../../test/fakes/app";
import type { FakeGoogle } from "../google/fake";

/**
 * The Google Ads API (REST) as a part of the fakes app (./app.ts), in the shapes of Google's pages:
 * - `GET /{v}/customers:listAccessibleCustomers` → `{resourceNames: ["customers/123…"]}`
 *   (developers.google.com/google-ads/api/rest/reference/rest/{v}/customers/listAccessibleCustomers);
 * - `POST /{v}/customers/{id}/googleAds:searchStream` with `{query}` (GAQL,
 *   developers.google.com/google-ads/api/docs/query/grammar) → a JSON array of batches
 *   `[{results: [GoogleAdsRow], fieldMask, requestId}]` (…/reference/rpc/{v}/SearchGoogleAdsStreamResponse);
 *   int64 values as strings, doubles as numbers, names in camelCase;
 * - failures: google.rpc.Status with a `GoogleAdsFailure` detail (…/docs/best-practices/understand-api-errors),
 *   wrapped in an array by the streaming method;
 * - headers (…/docs/concepts/call-structure): `developer-token` on every call, `login-customer-id` =
 *   the manager when a client is reached through it.
 *
 * Bearer tokens are Google's (`google.authorized`). One manager (Acme Agency MCC) with two clients and
 * a nested manager, and one account reached directly. Numbers: `fakeAdsCell`, per ad (or keyword),
 * day and device; every fourth day of a month has no activity and is left out, as Google does.
 */

export interface FakeGoogleAds {
  version: string;
  developerToken: string;
  /** Answers the next searchStream calls with these first (bodies as given). */
  failNext: FakeFault[];
  /** Every request to the fakes app, in order. */
  calls: FakeCall[];
  /** Every searchStream call as Google saw it: the customer in the path, the GAQL and the two Ads headers. */
  searches: { customer: string; query: string; login: string | null; developerToken: string | null }[];
}

interface FakeCustomer {
  id: string;
  name: string;
  currency: string;
  manager: boolean;
  clients: string[];
}

export const ADS_CUSTOMERS: readonly FakeCustomer[] = [
  {
    id: "1112223333",
    name: "Acme Agency MCC",
    currency: "USD",
    manager: true,
    clients: ["4445556666", "7778889999", "1231231234"],
  },
  { id: "4445556666", name: "Acme Shoes", currency: "EUR", manager: false, clients: [] },
  { id: "7778889999", name: "Acme Hats", currency: "USD", manager: false, clients: [] },
  { id: "1231231234", name: "Regional MCC", currency: "USD", manager: true, clients: [] },
  { id: "5550001111", name: "Solo Bakery", currency: "GBP", manager: false, clients: [] },
];
/** What the login reaches directly (listAccessibleCustomers). */
export const ADS_ACCESSIBLE = ["1112223333", "5550001111"];

interface FakeAd {
  id: string;
  name: string;
  type: string;
}
interface FakeKeyword {
  id: string;
  text: string;
  matchType: string;
}
interface FakeAdGroup {
  id: string;
  name: string;
  status: string;
  ads: FakeAd[];
  keywords: FakeKeyword[];
}
interface FakeCampaign {
  id: string;
  name: string;
  status: string;
  network: string;
  adGroups: FakeAdGroup[];
}

/** The same tree in every client account, ids offset per account (Acme Shoes: campaigns 201–203). */
export function adsCampaigns(customer: string): FakeCampaign[] {
  const offset = { "4445556666": 0, "7778889999": 1000, "5550001111": 2000 }[customer];
  if (offset === undefined) return [];
  const id = (n: number) => String(n + offset);
  const rsa = (n: number): FakeAd => ({ id: id(n), name: "", type: "RESPONSIVE_SEARCH_AD" });
  return [
    {
      id: id(201),
      name: "Brand – Search",
      status: "ENABLED",
      network: "SEARCH",
      adGroups: [
        {
          id: id(301),
          name: "Running shoes",
          status: "ENABLED",
          ads: [rsa(401), rsa(402)],
          keywords: [
            { id: id(501), text: "running shoes", matchType: "EXACT" },
            { id: id(502), text: "trail shoes", matchType: "PHRASE" },
          ],
        },
        {
          id: id(302),
          name: "Boots",
          status: "PAUSED",
          ads: [rsa(403)],
          keywords: [{ id: id(503), text: "winter boots", matchType: "BROAD" }],
        },
      ],
    },
    {
      id: id(202),
      name: "Remarketing – Display",
      status: "PAUSED",
      network: "CONTENT",
      adGroups: [
        {
          id: id(303),
          name: "Visitors",
          status: "ENABLED",
          ads: [{ id: id(404), name: "Autumn banner", type: "RESPONSIVE_DISPLAY_AD" }],
          keywords: [],
        },
      ],
    },
    {
      id: id(203),
      name: "Old promo",
      status: "REMOVED",
      network: "SEARCH",
      adGroups: [{ id: id(304), name: "Old", status: "REMOVED", ads: [rsa(405)], keywords: [] }],
    },
  ];
}

export const ADS_DEVICES = ["MOBILE", "DESKTOP"] as const;

/** The activity of one ad or keyword on one day on one device: null on every fourth day of a month. */
export function fakeAdsCell(leaf: string, day: string, device: string) {
  const n = Number(day.slice(8, 10));
  if (n % 4 === 0) return null;
  const k = Number(leaf) % 10;
  const impressions = (100 + 10 * n + 7 * k) * (device === "MOBILE" ? 2 : 1);
  const clicks = Math.round(impressions / (15 + k));
  // Whole and half conversions (data-driven attribution splits them): sums stay exact in binary.
  const conversions = Math.floor(clicks / 8) + 0.5;
  return {
    impressions,
    clicks,
    costMicros: clicks * (350_000 + 10_000 * k),
    interactions: clicks,
    conversions,
    conversionsValue: conversions * 40,
    allConversions: conversions + 1,
  };
}
type Sums = NonNullable<ReturnType<typeof fakeAdsCell>>;

/** Days of a range, yyyy-mm-dd. */
function daysOf(start: string, end: string): string[] {
  const out: string[] = [];
  for (let at = Date.parse(`${start}T00:00:00Z`); at <= Date.parse(`${end}T00:00:00Z`); at += 86_400_000) {
    out.push(new Date(at).toISOString().slice(0, 10));
  }
  return out;
}

/** What one result row is about: the resources and segments its fields are read from. */
interface Context {
  customer: FakeCustomer;
  client?: { customer: FakeCustomer; level: number; manager: FakeCustomer };
  campaign?: FakeCampaign;
  adGroup?: FakeAdGroup;
  ad?: FakeAd;
  keyword?: FakeKeyword;
  segments: { date?: string; device?: string };
  metrics?: Sums;
}

const ratio = (top: number, bottom: number) => (bottom > 0 ? top / bottom : 0);

/** The GAQL fields the fake knows, and how each reads a row's context (int64 as strings, like Google). */
const FIELDS: Record<string, (ctx: Context) => unknown> = {
  "customer.id": (ctx) => ctx.customer.id,
  "customer.descriptive_name": (ctx) => ctx.customer.name,
  "customer.currency_code": (ctx) => ctx.customer.currency,
  "customer.manager": (ctx) => ctx.customer.manager,
  "customer.time_zone": () => "Europe/Berlin",
  "customer_client.id": (ctx) => ctx.client?.customer.id,
  "customer_client.descriptive_name": (ctx) => ctx.client?.customer.name,
  "customer_client.currency_code": (ctx) => ctx.client?.customer.currency,
  "customer_client.manager": (ctx) => ctx.client?.customer.manager,
  "customer_client.level": (ctx) => String(ctx.client?.level),
  "customer_client.client_customer": (ctx) => `customers/${ctx.client?.customer.id}`,
  "campaign.id": (ctx) => ctx.campaign?.id,
  "campaign.name": (ctx) => ctx.campaign?.name,
  "campaign.status": (ctx) => ctx.campaign?.status,
  "ad_group.id": (ctx) => ctx.adGroup?.id,
  "ad_group.name": (ctx) => ctx.adGroup?.name,
  "ad_group.status": (ctx) => ctx.adGroup?.status,
  "ad_group_ad.ad.id": (ctx) => ctx.ad?.id,
  "ad_group_ad.ad.name": (ctx) => ctx.ad?.name,
  "ad_group_ad.ad.type": (ctx) => ctx.ad?.type,
  "ad_group_ad.status": (ctx) => (ctx.adGroup?.status === "REMOVED" ? "REMOVED" : "ENABLED"),
  "ad_group_criterion.criterion_id": (ctx) => ctx.keyword?.id,
  "ad_group_criterion.keyword.text": (ctx) => ctx.keyword?.text,
  "ad_group_criterion.keyword.match_type": (ctx) => ctx.keyword?.matchType,
  "segments.date": (ctx) => ctx.segments.date,
  "segments.device": (ctx) => ctx.segments.device,
  "segments.ad_network_type": (ctx) => ctx.campaign?.network,
  "metrics.impressions": (ctx) => String(ctx.metrics?.impressions ?? 0),
  "metrics.clicks": (ctx) => String(ctx.metrics?.clicks ?? 0),
  "metrics.cost_micros": (ctx) => String(ctx.metrics?.costMicros ?? 0),
  "metrics.interactions": (ctx) => String(ctx.metrics?.interactions ?? 0),
  "metrics.conversions": (ctx) => ctx.metrics?.conversions ?? 0,
  "metrics.conversions_value": (ctx) => ctx.metrics?.conversionsValue ?? 0,
  "metrics.all_conversions": (ctx) => ctx.metrics?.allConversions ?? 0,
  "metrics.ctr": (ctx) => ratio(ctx.metrics?.clicks ?? 0, ctx.metrics?.impressions ?? 0),
  "metrics.average_cpc": (ctx) => ratio(ctx.metrics?.costMicros ?? 0, ctx.metrics?.clicks ?? 0),
  "metrics.cost_per_conversion": (ctx) => ratio(ctx.metrics?.costMicros ?? 0, ctx.metrics?.conversions ?? 0),
};

/** Resources whose fields each FROM resource may select (its own, attributed and segmenting ones). */
const SELECTABLE: Record<string, string[]> = {
  customer: ["customer", "segments", "metrics"],
  customer_client: ["customer_client", "customer"],
  campaign: ["customer", "campaign", "segments", "metrics"],
  ad_group: ["customer", "campaign", "ad_group", "segments", "metrics"],
  ad_group_ad: ["customer", "campaign", "ad_group", "ad_group_ad", "segments", "metrics"],
  keyword_view: ["customer", "campaign", "ad_group", "ad_group_criterion", "segments", "metrics"],
};

const camel = (snake: string) => snake.replace(/_([a-z])/g, (_m, letter: string) => letter.toUpperCase());

interface Condition {
  field: string;
  operator: string;
  value: string;
}
interface Query {
  fields: string[];
  from: string;
  conditions: Condition[];
  range: { start: string; end: string } | null;
}

class QueryFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const CONDITION =
  /\s*([a-z_.]+)\s+BETWEEN\s+'(\d{4}-\d{2}-\d{2})'\s+AND\s+'(\d{4}-\d{2}-\d{2})'\s*|\s*([a-z_.]+)\s*(!=|<=|>=|=|<|>)\s*('[^']*'|-?\d+)\s*/iy;

function parseQuery(text: string): Query {
  const match =
    /^\s*SELECT\s+(.+?)\s+FROM\s+([a-z_]+)(?:\s+WHERE\s+(.+?))?(?:\s+ORDER BY\s+(.+?))?(?:\s+LIMIT\s+\d+)?\s*$/is.exec(
      text,
    );
  if (!match) throw new QueryFailure("QUERY_ERROR", "Error in query: the query is not valid GAQL.");
  const [, select = "", from = "", where = ""] = match;
  if (!SELECTABLE[from])
    throw new QueryFailure("INVALID_RESOURCE_NAME_IN_FROM_CLAUSE", `Unrecognized resource: '${from}'.`);
  const fields = select.split(",").map((field) => field.trim());
  const conditions: Condition[] = [];
  let range: Query["range"] = null;
  if (where) {
    CONDITION.lastIndex = 0;
    while (CONDITION.lastIndex < where.length) {
      const part = CONDITION.exec(where);
      if (!part)
        throw new QueryFailure("QUERY_ERROR", `Error in query: cannot read '${where.slice(CONDITION.lastIndex)}'.`);
      if (part[1]) {
        if (part[1] !== "segments.date") throw new QueryFailure("QUERY_ERROR", "BETWEEN is for segments.date.");
        range = { start: part[2] ?? "", end: part[3] ?? "" };
      } else {
        conditions.push({
          field: part[4] ?? "",
          operator: part[5] ?? "",
          value: (part[6] ?? "").replace(/^'|'$/g, ""),
        });
      }
      const rest = where.slice(CONDITION.lastIndex);
      const and = /^AND\s+/i.exec(rest);
      if (and) CONDITION.lastIndex += and[0].length;
      else if (rest.trim() !== "")
        throw new QueryFailure("QUERY_ERROR", `Error in query: unexpected '${rest.trim()}'.`);
      else break;
    }
  }
  for (const field of [...fields, ...conditions.map((condition) => condition.field)]) {
    if (!FIELDS[field]) throw new QueryFailure("UNRECOGNIZED_FIELD", `Unrecognized field in the query: '${field}'.`);
    if (!SELECTABLE[from].includes(field.split(".")[0] ?? "")) {
      throw new QueryFailure(
        "PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE",
        `Cannot select or filter on the following resource: '${field.split(".")[0]}', since it is not segmenting or attributed to the resource in the FROM clause.`,
      );
    }
  }
  return { fields, from, conditions, range };
}

function holds(condition: Condition, ctx: Context): boolean {
  const value = FIELDS[condition.field]?.(ctx);
  const text = String(value);
  switch (condition.operator) {
    case "=":
      return text === condition.value;
    case "!=":
      return text !== condition.value;
    case "<=":
      return Number(value) <= Number(condition.value);
    case ">=":
      return Number(value) >= Number(condition.value);
    case "<":
      return Number(value) < Number(condition.value);
    default:
      return Number(value) > Number(condition.value);
  }
}

/** The contexts of the FROM resource's rows (before segments and metrics). */
function resources(from: string, customer: FakeCustomer): Context[] {
  const base = { customer, segments: {} };
  if (from === "customer") return [base];
  if (from === "customer_client") {
    const out: Context[] = [];
    const walk = (entry: FakeCustomer, level: number) => {
      out.push({ ...base, client: { customer: entry, level, manager: customer } });
      for (const id of entry.clients) {
        const child = ADS_CUSTOMERS.find((candidate) => candidate.id === id);
        if (child) walk(child, level + 1);
      }
    };
    walk(customer, 0);
    return out;
  }
  return adsCampaigns(customer.id).flatMap((campaign) => {
    if (from === "campaign") return [{ ...base, campaign }];
    return campaign.adGroups.flatMap((adGroup) => {
      if (from === "ad_group") return [{ ...base, campaign, adGroup }];
      if (from === "ad_group_ad") return adGroup.ads.map((ad) => ({ ...base, campaign, adGroup, ad }));
      return adGroup.keywords.map((keyword) => ({ ...base, campaign, adGroup, keyword }));
    });
  });
}

/** The leaves whose activity a row of the FROM resource sums: ads, or keywords for keyword_view. */
function leaves(from: string, ctx: Context): string[] {
  // Removed campaigns had their activity before any range the tests ask for.
  if (ctx.campaign?.status === "REMOVED") return [];
  if (ctx.keyword) return [ctx.keyword.id];
  if (ctx.ad) return [ctx.ad.id];
  if (from === "keyword_view") return [];
  const campaigns = ctx.campaign ? [ctx.campaign] : adsCampaigns(ctx.customer.id);
  return campaigns
    .filter((campaign) => campaign.status !== "REMOVED")
    .flatMap((campaign) => (ctx.adGroup ? [ctx.adGroup] : campaign.adGroups))
    .flatMap((group) => group.ads.map((ad) => ad.id));
}

function addCell(into: Sums, cell: Sums) {
  for (const key of Object.keys(into) as (keyof Sums)[]) into[key] += cell[key];
}

/** A result row: the selected fields as nested camelCase objects, each resource with its resourceName. */
function rowOf(fields: string[], ctx: Context) {
  const row: Record<string, Record<string, unknown>> = {};
  const names: Record<string, string | undefined> = {
    customer: `customers/${ctx.customer.id}`,
    customerClient: ctx.client && `customers/${ctx.customer.id}/customerClients/${ctx.client.customer.id}`,
    campaign: ctx.campaign && `customers/${ctx.customer.id}/campaigns/${ctx.campaign.id}`,
    adGroup: ctx.adGroup && `customers/${ctx.customer.id}/adGroups/${ctx.adGroup.id}`,
    adGroupAd: ctx.ad && `customers/${ctx.customer.id}/adGroupAds/${ctx.adGroup?.id}~${ctx.ad.id}`,
    adGroupCriterion:
      ctx.keyword && `customers/${ctx.customer.id}/adGroupCriteria/${ctx.adGroup?.id}~${ctx.keyword.id}`,
  };
  for (const field of fields) {
    const path = field.split(".").map(camel);
    const top = path[0] ?? "";
    row[top] ??= names[top] ? { resourceName: names[top] } : {};
    let at: Record<string, unknown> = row[top];
    for (const key of path.slice(1, -1)) {
      at[key] ??= {};
      at = at[key] as Record<string, unknown>;
    }
    at[path[path.length - 1] ?? ""] = FIELDS[field]?.(ctx);
  }
  return row;
}

/** The rows Google would answer: one per FROM resource and selected segments, metrics summed over the rest. */
function answer(query: Query, customer: FakeCustomer) {
  const withMetrics = query.fields.some((field) => field.startsWith("metrics."));
  const segmented = query.fields.filter((field) => field.startsWith("segments."));
  const matches = (ctx: Context) => query.conditions.every((condition) => holds(condition, ctx));
  const rows: Record<string, unknown>[] = [];
  for (const ctx of resources(query.from, customer)) {
    if (!withMetrics && segmented.length === 0) {
      if (matches(ctx)) rows.push(rowOf(query.fields, ctx));
      continue;
    }
    // Without a date range the fake has no activity to report (the connector always sends one).
    const days = query.range ? daysOf(query.range.start, query.range.end) : [];
    const groups = new Map<string, Context>();
    for (const leaf of leaves(query.from, ctx)) {
      for (const day of days) {
        for (const device of ADS_DEVICES) {
          const cell = fakeAdsCell(leaf, day, device);
          if (!cell) continue;
          const segments = {
            ...(segmented.includes("segments.date") && { date: day }),
            ...(segmented.includes("segments.device") && { device }),
          };
          const key = JSON.stringify(segments);
          let group = groups.get(key);
          if (!group) {
            group = {
              ...ctx,
              segments,
              metrics: {
                impressions: 0,
                clicks: 0,
                costMicros: 0,
                interactions: 0,
                conversions: 0,
                conversionsValue: 0,
                allConversions: 0,
              },
            };
            groups.set(key, group);
          }
          addCell(group.metrics as Sums, cell);
        }
      }
    }
    for (const group of [...groups.values()].sort((a, b) =>
      (a.segments.date ?? "").localeCompare(b.segments.date ?? ""),
    )) {
      if (matches(group)) rows.push(rowOf(query.fields, group));
    }
  }
  return rows;
}

/** A Google Ads failure body (google.rpc.Status with a GoogleAdsFailure detail). */
export function adsFailure(
  version: string,
  code: number,
  status: string,
  errorCode: Record<string, string>,
  message: string,
  details?: Record<string, unknown>,
) {
  const rpcMessage: Record<number, string> = {
    400: "Request contains an invalid argument.",
    401: "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
    403: "The caller does not have permission",
    429: "Resource has been exhausted (e.g. check quota).",
  };
  return {
    error: {
      code,
      message: rpcMessage[code] ?? message,
      status,
      details: [
        {
          "@type": `type.googleapis.com/google.ads.googleads.${version}.errors.GoogleAdsFailure`,
          errors: [{ errorCode, message, ...(details && { details }) }],
          requestId: "fake-ads-request",
        },
      ],
    },
  };
}

const headerOf = (request: FastifyRequest, name: string): string | null => {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
};

/** Google Ads as a fakes-app part; its bearer tokens are the Google part's. */
export function googleAdsFake(google: FakeGoogle, version = "v24"): FakePart<FakeGoogleAds> {
  const state: FakeGoogleAds = {
    version,
    developerToken: "fake-developer-token",
    failNext: [],
    calls: [],
    searches: [],
  };
  let requests = 0;
  const fail = (
    reply: FastifyReply,
    streamed: boolean,
    code: number,
    status: string,
    errorCode: Record<string, string>,
    message: string,
  ) => {
    const body = adsFailure(version, code, status, errorCode, message);
    return reply.code(code).send(streamed ? [body] : body);
  };
  /** What Google checks before anything else: the OAuth token, then the developer token. */
  const refused = (request: FastifyRequest, reply: FastifyReply, streamed: boolean) => {
    if (!google.authorized(request.headers.authorization)) {
      return fail(
        reply,
        streamed,
        401,
        "UNAUTHENTICATED",
        { authenticationError: "OAUTH_TOKEN_INVALID" },
        "Oauth token is invalid.",
      );
    }
    const token = headerOf(request, "developer-token");
    if (!token) {
      return fail(
        reply,
        streamed,
        400,
        "INVALID_ARGUMENT",
        { requestError: "DEVELOPER_TOKEN_PARAMETER_MISSING" },
        "The developer token parameter is required for all requests.",
      );
    }
    if (token !== state.developerToken) {
      return fail(
        reply,
        streamed,
        401,
        "UNAUTHENTICATED",
        { authenticationError: "DEVELOPER_TOKEN_INVALID" },
        "The developer token is not valid.",
      );
    }
    return null;
  };
  /** The login reaches the customer directly, or through the manager named as login-customer-id. */
  const reachable = (customer: string, login: string | null): boolean => {
    if (login === null) return ADS_ACCESSIBLE.includes(customer);
    if (!ADS_ACCESSIBLE.includes(login)) return false;
    const under = (id: string): string[] => {
      const entry = ADS_CUSTOMERS.find((candidate) => candidate.id === id);
      return (entry?.clients ?? []).flatMap((child) => [child, ...under(child)]);
    };
    return customer === login || under(login).includes(customer);
  };

  return {
    state,
    env: (origin) => ({
      GOOGLE_ADS_API_URL: origin,
      GOOGLE_ADS_API_VERSION: version,
      GOOGLE_ADS_DEVELOPER_TOKEN: state.developerToken,
    }),
    register(app, shared) {
      state.calls = shared.calls;
      app.all(`/${version}/*`, async (request, reply) => {
        const path = decodeURIComponent(new URL(request.url, "http://fake").pathname);
        if (path === `/${version}/customers:listAccessibleCustomers` && request.method === "GET") {
          const denied = refused(request, reply, false);
          if (denied) return denied;
          return { resourceNames: ADS_ACCESSIBLE.map((id) => `customers/${id}`) };
        }
        const stream = new RegExp(`^/${version}/customers/([^/]+)/googleAds:searchStream$`).exec(path);
        if (!stream || request.method !== "POST") {
          return reply.code(404).send({ error: { code: 404, message: "Not found", status: "NOT_FOUND" } });
        }
        const customerId = stream[1] ?? "";
        const login = headerOf(request, "login-customer-id");
        const query = String(((request.body ?? {}) as { query?: unknown }).query ?? "");
        state.searches.push({
          customer: customerId,
          query,
          login,
          developerToken: headerOf(request, "developer-token"),
        });
        const denied = refused(request, reply, true);
        if (denied) return denied;
        const fault = state.failNext.shift();
        if (fault) return sendFault(reply, fault);
        const customer = ADS_CUSTOMERS.find((entry) => entry.id === customerId);
        if (!customer || !reachable(customerId, login)) {
          return fail(
            reply,
            true,
            403,
            "PERMISSION_DENIED",
            { authorizationError: "USER_PERMISSION_DENIED" },
            "User doesn't have permission to access customer. Note: If you're accessing a client customer, the manager's customer id must be set in the 'login-customer-id' header. See https://developers.google.com/google-ads/api/docs/concepts/call-structure#cid",
          );
        }
        let parsed: Query;
        try {
          parsed = parseQuery(query);
        } catch (error) {
          if (!(error instanceof QueryFailure)) throw error;
          return fail(reply, true, 400, "INVALID_ARGUMENT", { queryError: error.code }, error.message);
        }
        if (customer.manager && parsed.fields.some((field) => field.startsWith("metrics."))) {
          return fail(
            reply,
            true,
            400,
            "INVALID_ARGUMENT",
            { queryError: "REQUESTED_METRICS_FOR_MANAGER" },
            "Metrics cannot be requested for a manager account. To retrieve metrics, issue separate requests against each client account under the manager account.",
          );
        }
        const rows = answer(parsed, customer);
        requests += 1;
        const fieldMask = parsed.fields.map((field) => field.split(".").map(camel).join(".")).join(",");
        const requestId = `fake-ads-${requests}`;
        // Google's batches hold up to 10,000 rows; the fake's hold 10 so answers of several batches are common.
        const batches = [];
        for (let at = 0; at < rows.length; at += 10) {
          batches.push({ results: rows.slice(at, at + 10), fieldMask, requestId });
        }
        return batches.length > 0 ? batches : [{ fieldMask, requestId }];
      });
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "ads",
  after: "google",
  build: (parts) => googleAdsFake(parts.google.state as FakeGoogle),
};
