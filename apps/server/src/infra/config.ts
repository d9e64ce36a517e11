import net from "node:net";
import path from "node:path";
import { z } from "zod";

const zBool = z
  .enum(["true", "false", "1", "0"])
  .optional()
  .transform((v) => v === "true" || v === "1");

// The shape Sentry's SDKs accept (they silently disable themselves on anything else).
const zDsn = z
  .string()
  .regex(/^https?:\/\/\w+(:\w*)?@[^/\s]+\/(.+\/)?\d+$/, "must be a Sentry DSN: https://key@host/project-id")
  .optional();

/** Every environment variable the server reads; `.env.example` lists the same. */
export const ZEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z
    .string()
    .refine((v) => v === "" || /^(postgres|postgresql):\/\//.test(v), "must be a postgres:// URL or empty for SQLite")
    .optional(),
  APP_KEY: z.string().min(16, "must be at least 16 characters").optional(),
  APP_URL: z.url().optional(),
  // Sites that may frame the embedded dashboard view (CSP frame-ancestors): "*" or origins, space or comma separated.
  EMBED_FRAME_ANCESTORS: z
    .string()
    .default("*")
    .refine(
      (v) => splitList(v).length > 0 && splitList(v).every((item) => FRAME_ANCESTOR.test(item)),
      'must be "*" or origins such as https://client.example or https://*.agency.example',
    ),
  SITE_TITLE: z.string().min(1).default("Reportz"),
  SMTP_URL: z
    .string()
    .refine((v) => /^smtps?:\/\//.test(v), "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().default("Reportz <no-reply@reportz.local>"),
  // White-label senders: the SPF include and the bounce host their DNS records point at.
  SENDER_SPF_INCLUDE: z.string().default("spf.reportz.local"),
  SENDER_RETURN_PATH_HOST: z.string().default("bounces.reportz.local"),
  // DNS servers the sender check asks (host or host:port, comma-separated); default: the system's.
  DNS_SERVERS: z.string().optional(),
  // Custom dashboard domains: the host their CNAME record must point at; default the host of APP_URL.
  CUSTOM_DOMAIN_TARGET: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9.-]+$/, "must be a host name such as app.reportz.example")
      .optional(),
  ),
  // Stripe card payments (docs/operations.md "Billing and payments"): without the secret key payments are
  // off and sign-up starts a trial. STRIPE_API_URL points the client elsewhere (tests: the local fake);
  // STRIPE_JS_URL is where browsers load Stripe.js from.
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_/, "must be a Stripe secret key (sk_… or rk_…)")
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().regex(/^pk_/, "must be a Stripe publishable key (pk_…)").optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_/, "must be a Stripe webhook signing secret (whsec_…)")
    .optional(),
  STRIPE_API_URL: z.url().default("https://api.stripe.com"),
  STRIPE_JS_URL: z.url().default("https://js.stripe.com/v3/"),
  // The seller on invoices (features/billing/invoices): default name SITE_TITLE; address lines split by "|".
  INVOICE_SELLER_NAME: z.string().trim().max(200).optional(),
  INVOICE_SELLER_ADDRESS: z.string().trim().max(1000).optional(),
  INVOICE_SELLER_VAT_ID: z.string().trim().max(32).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  RATE_LIMIT_AUTH_MAX: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).default(30),
  MAX_PDF_WIDGETS: z.coerce.number().int().min(1).default(60),
  SEED_DEMO: zBool,
  // The public dashboard view rendered by the server (features/page-data/server-render.ts); on unless "0".
  PUBLIC_VIEW_SSR: zBool,
  PUBLIC_VIEW_SSR_BUDGET_MS: z.coerce.number().int().min(0).max(10_000).default(800),
  // Tests and browser tests need a known demo login; otherwise a random one is made on first start.
  DEMO_PASSWORD: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.string().min(8, "must be at least 8 characters").max(128).optional(),
  ),
  SECURE_COOKIES: zBool,
  ROLE: z.enum(["all", "web", "worker"]).default("all"),
  REDIS_URL: z
    .string()
    .refine((v) => v === "" || /^rediss?:\/\//.test(v), "must be a redis:// or rediss:// URL")
    .optional(),
  // Object storage (S3-compatible) for uploaded files; without S3_ENDPOINT files live under STORAGE_DIR.
  S3_ENDPOINT: z.union([z.literal(""), z.url()]).optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  // A directory every process shares (distributed mode without S3); defaults to DATA_DIR/files.
  STORAGE_DIR: z.string().optional(),
  CHROMIUM_PATH: z.string().default("/usr/bin/chromium"),
  // Hosts (names or addresses) that connectors may reach on private addresses when a user typed them
  // (comma-separated): a deployment's test fakes or an intranet tool. Everything else private is refused.
  OUTBOUND_ALLOW_HOSTS: z.string().default(""),
  // Chromium pages rendering at once in one process (PDFs, report previews): each holds ~100 MB.
  BROWSER_PAGES: z.coerce.number().int().min(1).max(16).default(3),
  // Jobs one process runs at once; most of a job's time is waiting (a render, an SMTP server).
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(16),
  // Where the headless browser opens print views: a web process of this deployment (default this one's port).
  RENDER_BASE_URL: z.url().optional(),
  // A widget's own data time limit in the print view; beyond it the PDF shows 'Data unavailable' for it.
  PDF_WIDGET_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(20_000),
  // A fixed wait (ms) after every widget of the print view has drawn its final frame, before the PDF is
  // taken. 0 (the default): none, the view draws without animation; 1500 is the wait the spec names.
  PRINT_SETTLE_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  // Google's OAuth client (Google Analytics and the other Google connectors); without both, the catalogue
  // shows the Google connectors as not configured on this server. The URLs default to Google's own.
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_AUTH_URL: z.url().default("https://accounts.google.com/o/oauth2/v2/auth"),
  GOOGLE_TOKEN_URL: z.url().default("https://oauth2.googleapis.com/token"),
  GOOGLE_REVOKE_URL: z.url().default("https://oauth2.googleapis.com/revoke"),
  GA4_DATA_API_URL: z.url().default("https://analyticsdata.googleapis.com"),
  GA4_ADMIN_API_URL: z.url().default("https://analyticsadmin.googleapis.com"),
  SEARCH_CONSOLE_API_URL: z.url().default("https://www.googleapis.com"),
  // Google Sheets reads values from the Sheets API and lists spreadsheets from the Drive API.
  SHEETS_API_URL: z.url().default("https://sheets.googleapis.com"),
  DRIVE_API_URL: z.url().default("https://www.googleapis.com"),
  // Google Business Profile: three APIs, each with its own address (Account Management for accounts,
  // Business Information for locations, Performance for the daily numbers).
  GBP_ACCOUNT_MANAGEMENT_API_URL: z.url().default("https://mybusinessaccountmanagement.googleapis.com"),
  GBP_BUSINESS_INFORMATION_API_URL: z.url().default("https://mybusinessbusinessinformation.googleapis.com"),
  GBP_PERFORMANCE_API_URL: z.url().default("https://businessprofileperformance.googleapis.com"),
  // Google Ads: the API's address, its version path segment (Google keeps a version about a year; v24
  // was released in April 2026) and the operator's developer token (Google Ads API Center of a manager
  // account), sent as the `developer-token` header on every call. Without the token the catalogue shows
  // Google Ads as not configured on this server.
  GOOGLE_ADS_API_URL: z.url().default("https://googleads.googleapis.com"),
  GOOGLE_ADS_API_VERSION: z
    .string()
    .regex(/^v\d+$/, "GOOGLE_ADS_API_VERSION looks like v24")
    .default("v24"),
  GOOGLE_ADS_DEVELOPER_TOKEN: z.string().optional(),
  // Operations a day the developer token's access level allows (Explorer 2,880, Basic 15,000; Standard
  // has no daily cap: set a number above what the server could use). Counted before each call.
  GOOGLE_ADS_DAILY_OPERATIONS: z.coerce.number().int().positive().default(15_000),
  // Meta's app (Facebook Ads, Facebook Social, Instagram); without both, the catalogue shows the Meta
  // connectors as not configured on this server. The URLs default to Meta's own; the Graph API version
  // is the path segment every call carries (v25.0 is supported until July 2028).
  META_APP_ID: z.string().optional(),
  META_APP_SECRET: z.string().optional(),
  META_GRAPH_URL: z.url().default("https://graph.facebook.com"),
  META_DIALOG_URL: z.url().default("https://www.facebook.com"),
  META_GRAPH_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, "META_GRAPH_VERSION looks like v25.0")
    .default("v25.0"),
  // LinkedIn's app (LinkedIn Ads, LinkedIn Social; developer portal → My apps, products "Advertising
  // API", "Community Management API" and "Sign In with LinkedIn using OpenID Connect"); without both,
  // the catalogue shows the LinkedIn connectors as not configured on this server. AUTH_URL serves the
  // consent screen and the token endpoint, API_URL the REST API. LINKEDIN_VERSION is the `LinkedIn-Version`
  // header (YYYYMM) every /rest call carries: LinkedIn keeps a version about 12 months and refuses an
  // expired one (NONEXISTENT_VERSION), so raise it at least once a year.
  LINKEDIN_CLIENT_ID: z.string().optional(),
  LINKEDIN_CLIENT_SECRET: z.string().optional(),
  LINKEDIN_AUTH_URL: z.url().default("https://www.linkedin.com"),
  LINKEDIN_API_URL: z.url().default("https://api.linkedin.com"),
  LINKEDIN_VERSION: z
    .string()
    .regex(/^20\d{2}(0[1-9]|1[0-2])$/, "LINKEDIN_VERSION looks like 202610 (YYYYMM)")
    .default("202610"),
  // Social sign-up and login (docs/operations.md "Social sign-in"): a provider is offered only with its
  // client id and secret. Google and LinkedIn speak OpenID Connect from their issuer (discovery at
  // ISSUER_URL/.well-known/openid-configuration); Facebook is plain OAuth 2 on META_DIALOG_URL and
  // META_GRAPH_URL (version META_GRAPH_VERSION) with its own app id. These clients are not the
  // connectors' ones: a login client asks only for the e-mail and name.
  SOCIAL_GOOGLE_CLIENT_ID: z.string().optional(),
  SOCIAL_GOOGLE_CLIENT_SECRET: z.string().optional(),
  SOCIAL_GOOGLE_ISSUER_URL: z.url().default("https://accounts.google.com"),
  SOCIAL_LINKEDIN_CLIENT_ID: z.string().optional(),
  SOCIAL_LINKEDIN_CLIENT_SECRET: z.string().optional(),
  SOCIAL_LINKEDIN_ISSUER_URL: z.url().default("https://www.linkedin.com/oauth"),
  SOCIAL_FACEBOOK_APP_ID: z.string().optional(),
  SOCIAL_FACEBOOK_APP_SECRET: z.string().optional(),
  // Ahrefs API v3 (Site Explorer, Rank Tracker, Management, Subscription info; paths carry `/v3`; the
  // user's API key is the login, sent as a Bearer token).
  AHREFS_API_URL: z.url().default("https://api.ahrefs.com"),
  // Mission Control's server SEO key (docs/decisions.md, "Mission Control metric sources"): an Ahrefs API v3 key of the operator's that lets a
  // group track any domain with no customer connection (the "ahrefs" metrics source). Unset: not offered.
  MC_AHREFS_KEY: z.string().min(1).optional(),
  MC_AHREFS_BASE_URL: z.url().default("https://api.ahrefs.com"),
  // SE Ranking's Project API (rank tracking projects; the user's API key is the login, sent as
  // `Authorization: Token …`).
  SERANKING_API_URL: z.url().default("https://api4.seranking.com"),
  // Salesflare's API (opportunities, pipelines; the user's API key is the login, sent as a Bearer token).
  SALESFLARE_API_URL: z.url().default("https://api.salesflare.com"),
  // SEMrush's Standard API (v3 reports: `?type=domain_ranks&key=…`, answers in `;`-separated CSV) and
  // the host of its free API-unit balance call (`/users/countapiunits.html`); the user's key is the login.
  SEMRUSH_API_URL: z.url().default("https://api.semrush.com"),
  SEMRUSH_UNITS_URL: z.url().default("https://www.semrush.com"),
  // Serpstat's API v4 (JSON-RPC at `/v4/?token=…`; the user's token is the login).
  SERPSTAT_API_URL: z.url().default("https://api.serpstat.com"),
  // Rank Ranger's Reporting API v2 (now Similarweb Rank Tracker; `/api/v2/?rank&key=…`, the user's API
  // key is the login and rides in the query).
  RANKRANGER_API_URL: z.url().default("https://www.rankranger.com"),
  // Klaviyo's API (the user's private key is the login, `Authorization: Klaviyo-API-Key …`) and the API
  // revision every request names in its `revision` header (Klaviyo keeps a revision two years).
  KLAVIYO_API_URL: z.url().default("https://a.klaviyo.com"),
  KLAVIYO_REVISION: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(\.pre)?$/, "KLAVIYO_REVISION looks like 2025-10-15")
    .default("2025-10-15"),
  // Base CRM (Zendesk Sell) OAuth app for the "Base.me" connector (docs/decisions.md); without both, the
  // catalogue shows it as not configured on this server. The API, the consent screen and the token
  // endpoint share one host (https://api.getbase.com: /v2/…, /oauth2/authorize, /oauth2/token).
  BASE_CLIENT_ID: z.string().optional(),
  BASE_CLIENT_SECRET: z.string().optional(),
  BASE_API_URL: z.url().default("https://api.getbase.com"),
  // AccuRanker OAuth app; without both, the catalogue shows AccuRanker as not configured on this server.
  // The consent screen (/oauth/authorize/), token endpoint (/oauth/token/) and API v4 (/api/v4/…) share
  // one host.
  ACCURANKER_CLIENT_ID: z.string().optional(),
  ACCURANKER_CLIENT_SECRET: z.string().optional(),
  ACCURANKER_URL: z.url().default("https://app.accuranker.com"),
  // TikTok API for Business (TikTok Ads): the developer app's id and secret (My Apps → App Detail);
  // without both the catalogue shows TikTok as not configured. The API host serves the token endpoint
  // too; the consent screen is the portal's `/portal/auth`. The app's rate tier (Basic 10 per second,
  // 600 per minute) is counted before each call.
  TIKTOK_APP_ID: z.string().optional(),
  TIKTOK_APP_SECRET: z.string().optional(),
  TIKTOK_API_URL: z.url().default("https://business-api.tiktok.com"),
  TIKTOK_AUTH_URL: z.url().default("https://business-api.tiktok.com/portal/auth"),
  // Mailchimp's OAuth app (Marketing API 3.0); without both the catalogue shows Mailchimp as not
  // configured. The login host serves consent, token and metadata; the API host is a template whose
  // `{dc}` is the account's data centre, learnt from the metadata call (tests give an origin without it).
  MAILCHIMP_CLIENT_ID: z.string().optional(),
  MAILCHIMP_CLIENT_SECRET: z.string().optional(),
  MAILCHIMP_LOGIN_URL: z.url().default("https://login.mailchimp.com"),
  MAILCHIMP_API_URL: z
    .string()
    .refine((v) => URL.canParse(v.replaceAll("{dc}", "us1")), "must be a URL, `{dc}` standing for the data centre")
    .default("https://{dc}.api.mailchimp.com"),
  // Bearer token of the operator's endpoints (/metrics, /ops/*); without it they answer 404.
  OPS_TOKEN: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.string().min(16, "must be at least 16 characters").optional(),
  ),
  TRUST_PROXY: z
    .string()
    .regex(/^(false|true|\d+|[0-9a-fA-F.:/,\s]+)$/, "must be false, true, a hop count or proxy addresses")
    .optional(),
  // Error reporting (Sentry): without a DSN errors are only logged and the SDK is never loaded.
  SENTRY_DSN: zDsn,
  // The browser's DSN (public by design); defaults to SENTRY_DSN.
  SENTRY_BROWSER_DSN: zDsn,
  SENTRY_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(0.2),
  // Who may read GET /metrics without OPS_TOKEN: addresses or CIDR ranges, comma-separated (default: loopback).
  METRICS_ALLOW: z
    .string()
    .refine((v) => parseAddressList(v) !== null, "must be IP addresses or CIDR ranges, comma-separated")
    .default("127.0.0.0/8,::1"),
});

export interface AppConfig {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  appKey: string;
  /** The address users open (APP_URL): e-mailed links, embed snippets and OAuth redirects are built from it. */
  appUrl: string;
  /** Settings worth a word at start-up (main.ts logs each once as a warning), such as APP_URL left unset. */
  warnings: string[];
  /** Who may frame /dashboards/:permalink/embed (CSP frame-ancestors sources); every other page: nobody. */
  embedFrameAncestors: string[];
  siteTitle: string;
  smtpUrl: string | null;
  mailFrom: string;
  /** White-label senders: SPF include, bounce host, and the DNS servers the check asks (empty: the system's). */
  sender: { spfInclude: string; returnPathHost: string; dnsServers: string[] };
  /** Custom dashboard domains: the CNAME target, and this app's own host (never a company's domain). */
  customDomains: { target: string; ownHost: string };
  /**
   * Stripe (features/billing); null without STRIPE_SECRET_KEY: payments off, registration starts a trial.
   * `api` is where the client sends requests (host, port, protocol of STRIPE_API_URL).
   */
  stripe: {
    secretKey: string;
    publishableKey: string;
    webhookSecret: string | null;
    api: { host: string; port: number; protocol: "http" | "https" };
    jsUrl: string;
  } | null;
  /** Who issues the invoices (INVOICE_SELLER_*): printed at the top of every invoice PDF. */
  invoiceSeller: { name: string; addressLines: string[]; vatId: string | null };
  logLevel: string;
  rateLimit: { authMax: number; windowMs: number };
  sessionTtlDays: number;
  maxPdfWidgets: number;
  seedDemo: boolean;
  /**
   * Public dashboard views rendered by the server (PUBLIC_VIEW_SSR, on by default), and how long their
   * widgets' answers may take before the page is sent with the late cards loading (…_BUDGET_MS).
   */
  publicViewSsr: { enabled: boolean; budgetMs: number };
  /** The demo admin's password when set explicitly (DEMO_PASSWORD); null: a random one is generated. */
  demoPassword: string | null;
  /** Cookies marked Secure: when SECURE_COOKIES is set, and always when APP_URL is https. */
  secureCookies: boolean;
  /** Fastify trustProxy: false (default), true, a hop count (as a function), or the proxies' addresses. */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean);
  errorReporting: {
    /** Server DSN; null: errors are only logged. */
    dsn: string | null;
    /** Handed to the web app in page data; null: the browser reports nothing. */
    browserDsn: string | null;
    sampleRate: number;
  };
  /** Addresses that may read GET /metrics without the ops token. */
  metrics: { allow: AddressRange[] };
  role: "all" | "web" | "worker";
  /** Redis for cache, jobs, events, rate limits and realtime fan-out; null in the embedded mode. */
  redisUrl: string | null;
  s3: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string } | null;
  /** Where uploaded files live without S3 (absolute). */
  storageDir: string;
  chromiumPath: string;
  /** Hosts user-supplied connector addresses may reach although private (docs/decisions.md, "Connector HTTP layer"). */
  outboundAllowHosts: string[];
  /** Mission Control's server Ahrefs key (MC_AHREFS_KEY) and base URL; null without a key. */
  missionControlAhrefs: { key: string; apiUrl: string } | null;
  /** Chromium pages rendering at once in this process. */
  browserPages: number;
  /** Jobs this process runs at once. */
  jobsConcurrency: number;
  /**
   * PDF and report previews: the print view's base address, each widget's data time limit there, and the
   * fixed wait after the last widget has drawn (PRINT_SETTLE_MS, 0 by default).
   */
  render: { baseUrl: string; widgetTimeoutMs: number; settleMs: number };
  opsToken: string | null;
  /** Provider endpoints and OAuth clients of the connectors (docs/connectors.md). */
  providers: ProvidersConfig;
  /** Social sign-in clients (features/social-auth); null: that provider is not offered. */
  socialLogin: SocialLoginConfig;
}

/** One OAuth client and the API addresses of one provider family. */
export interface GoogleProviderConfig {
  clientId: string | null;
  clientSecret: string | null;
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  ga4DataUrl: string;
  ga4AdminUrl: string;
  searchConsoleUrl: string;
  sheetsUrl: string;
  driveUrl: string;
  /** Google Business Profile: Account Management, Business Information and Performance APIs. */
  businessAccountsUrl: string;
  businessInformationUrl: string;
  businessPerformanceUrl: string;
  /** Google Ads: https://googleads.googleapis.com, the version segment ("v24") and the developer token. */
  adsUrl: string;
  adsVersion: string;
  adsDeveloperToken: string | null;
  /** Operations a day the developer token may spend (its access level). */
  adsDailyOperations: number;
}

/** Meta's app and Graph API (Facebook Ads, Facebook Social, Instagram). */
export interface MetaProviderConfig {
  appId: string | null;
  appSecret: string | null;
  /** https://graph.facebook.com: the API and the token endpoint. */
  graphUrl: string;
  /** https://www.facebook.com: the consent dialog. */
  dialogUrl: string;
  /** The Graph API version path segment ("v25.0"). */
  version: string;
}

/** LinkedIn's app and REST API (LinkedIn Ads, LinkedIn Social). */
export interface LinkedInProviderConfig {
  clientId: string | null;
  clientSecret: string | null;
  /** https://www.linkedin.com: the consent screen, the token and revoke endpoints. */
  authUrl: string;
  /** https://api.linkedin.com: /rest (versioned) and /v2/userinfo. */
  apiUrl: string;
  /** The `LinkedIn-Version` header ("202610"). */
  version: string;
}

export interface ProvidersConfig {
  google: GoogleProviderConfig;
  meta: MetaProviderConfig;
  linkedin: LinkedInProviderConfig;
  /** Ahrefs API v3: https://api.ahrefs.com (paths start with /v3). */
  ahrefs: { apiUrl: string };
  /** SE Ranking's Project API: https://api4.seranking.com. */
  seranking: { apiUrl: string };
  /** Salesflare's API: https://api.salesflare.com. */
  salesflare: { apiUrl: string };
  /** SEMrush: the Standard API (https://api.semrush.com) and the unit balance host (https://www.semrush.com). */
  semrush: { apiUrl: string; unitsUrl: string };
  /** Serpstat's API v4: https://api.serpstat.com. */
  serpstat: { apiUrl: string };
  /** Rank Ranger's Reporting API v2: https://www.rankranger.com (paths start with /api/v2/). */
  rankranger: { apiUrl: string };
  /** Klaviyo: https://a.klaviyo.com and the `revision` header's date. */
  klaviyo: { apiUrl: string; revision: string };
  tiktok: TikTokProviderConfig;
  mailchimp: MailchimpProviderConfig;
  /** Base CRM (Zendesk Sell) for "Base.me": the OAuth client and https://api.getbase.com (API and OAuth). */
  base: { clientId: string | null; clientSecret: string | null; apiUrl: string };
  /** AccuRanker: the OAuth client and https://app.accuranker.com (API v4 and OAuth). */
  accuranker: { clientId: string | null; clientSecret: string | null; url: string };
}

/** TikTok API for Business: the developer app, the API host and the consent screen. */
export interface TikTokProviderConfig {
  appId: string | null;
  appSecret: string | null;
  /** https://business-api.tiktok.com: the API and the token endpoint (paths start with /open_api/v1.3). */
  apiUrl: string;
  /** https://business-api.tiktok.com/portal/auth: the consent screen. */
  authUrl: string;
}

/** Mailchimp's OAuth app and hosts. */
export interface MailchimpProviderConfig {
  clientId: string | null;
  clientSecret: string | null;
  /** https://login.mailchimp.com: consent, token and metadata. */
  loginUrl: string;
  /** https://{dc}.api.mailchimp.com: `{dc}` is replaced by the account's data centre. */
  apiUrl: string;
}

export class ConfigError extends Error {}

/**
 * Reads and validates the environment. A wrong value stops start-up with a message
 * naming the variable, so a typo in production never runs with a silent default.
 */
export function loadConfig(rawEnv: NodeJS.ProcessEnv = process.env): AppConfig {
  // An empty value means unset for every variable (`.env.example` is copied with empty values).
  const env = Object.fromEntries(Object.entries(rawEnv).filter(([, value]) => value !== "")) as NodeJS.ProcessEnv;
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === "production" && !e.APP_KEY) {
    throw new ConfigError("Invalid configuration:\n  APP_KEY: is required in production");
  }
  // `npm start` runs in the server's workspace folder; INIT_CWD is where the user typed the command,
  // so the default ./data is the repository's data folder the README promises.
  const dataDir = path.resolve(env.INIT_CWD ?? process.cwd(), e.DATA_DIR);
  // Links in e-mails and embed snippets are built from APP_URL: a production server must not hand out
  // localhost addresses, which only the server's own computer can open.
  if (e.NODE_ENV === "production" && !e.APP_URL) {
    throw new ConfigError(
      "Invalid configuration: APP_URL is required in production (the address users open, such as https://reports.example.com; e-mail links and embed snippets are built from it)",
    );
  }
  const appUrl = e.APP_URL ?? `http://localhost:${e.PORT}`;
  const warnings = e.APP_URL
    ? []
    : [
        `APP_URL is not set: e-mail links and embed snippets point to ${appUrl}, which only this computer can open. Set APP_URL to the address users open.`,
      ];
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ? e.DATABASE_URL : null,
    // Development keys are fixed so sessions survive restarts; production must set APP_KEY.
    appKey: e.APP_KEY ?? "development-only-app-key-change-me",
    appUrl,
    warnings,
    embedFrameAncestors: splitList(e.EMBED_FRAME_ANCESTORS),
    siteTitle: e.SITE_TITLE,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    rateLimit: { authMax: e.RATE_LIMIT_AUTH_MAX, windowMs: e.RATE_LIMIT_WINDOW_MS },
    sessionTtlDays: e.SESSION_TTL_DAYS,
    maxPdfWidgets: e.MAX_PDF_WIDGETS,
    seedDemo: e.NODE_ENV !== "production" && (env.SEED_DEMO === undefined ? true : e.SEED_DEMO),
    demoPassword: e.DEMO_PASSWORD ?? null,
    publicViewSsr: {
      enabled: env.PUBLIC_VIEW_SSR === undefined ? true : e.PUBLIC_VIEW_SSR,
      budgetMs: e.PUBLIC_VIEW_SSR_BUDGET_MS,
    },
    // Served over https, a cookie without Secure could still leak over a plain-http request.
    secureCookies: e.SECURE_COOKIES || new URL(appUrl).protocol === "https:",
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    errorReporting: {
      dsn: e.SENTRY_DSN ?? null,
      browserDsn: e.SENTRY_BROWSER_DSN ?? e.SENTRY_DSN ?? null,
      sampleRate: e.SENTRY_SAMPLE_RATE,
    },
    metrics: { allow: parseAddressList(e.METRICS_ALLOW) ?? [] },
    role: e.ROLE,
    redisUrl: e.REDIS_URL ? e.REDIS_URL : null,
    s3: e.S3_ENDPOINT
      ? {
          endpoint: e.S3_ENDPOINT,
          bucket: e.S3_BUCKET || "reportz",
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID ?? "",
          secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? "",
        }
      : null,
    storageDir: path.resolve(env.INIT_CWD ?? process.cwd(), e.STORAGE_DIR || path.join(e.DATA_DIR, "files")),
    chromiumPath: e.CHROMIUM_PATH,
    outboundAllowHosts: e.OUTBOUND_ALLOW_HOSTS.split(",")
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
    missionControlAhrefs: e.MC_AHREFS_KEY ? { key: e.MC_AHREFS_KEY, apiUrl: e.MC_AHREFS_BASE_URL } : null,
    browserPages: e.BROWSER_PAGES,
    jobsConcurrency: e.JOBS_CONCURRENCY,
    sender: {
      spfInclude: e.SENDER_SPF_INCLUDE,
      returnPathHost: e.SENDER_RETURN_PATH_HOST,
      dnsServers: (e.DNS_SERVERS ?? "")
        .split(",")
        .map((server) => server.trim())
        .filter(Boolean),
    },
    customDomains: {
      target: (e.CUSTOM_DOMAIN_TARGET ?? new URL(appUrl).hostname).replace(/\.$/, ""),
      ownHost: new URL(appUrl).hostname.toLowerCase(),
    },
    stripe: stripeConfig(e),
    invoiceSeller: {
      name: e.INVOICE_SELLER_NAME || e.SITE_TITLE,
      addressLines: (e.INVOICE_SELLER_ADDRESS ?? "")
        .split("|")
        .map((line) => line.trim())
        .filter(Boolean),
      vatId: e.INVOICE_SELLER_VAT_ID || null,
    },
    render: {
      baseUrl: (e.RENDER_BASE_URL ?? `http://127.0.0.1:${e.PORT}`).replace(/\/+$/, ""),
      widgetTimeoutMs: e.PDF_WIDGET_TIMEOUT_MS,
      settleMs: e.PRINT_SETTLE_MS,
    },
    opsToken: e.OPS_TOKEN ?? null,
    socialLogin: socialLoginConfig(e),
    providers: {
      google: {
        clientId: e.GOOGLE_CLIENT_ID || null,
        clientSecret: e.GOOGLE_CLIENT_SECRET || null,
        authUrl: e.GOOGLE_AUTH_URL,
        tokenUrl: e.GOOGLE_TOKEN_URL,
        revokeUrl: e.GOOGLE_REVOKE_URL,
        ga4DataUrl: e.GA4_DATA_API_URL,
        ga4AdminUrl: e.GA4_ADMIN_API_URL,
        searchConsoleUrl: e.SEARCH_CONSOLE_API_URL,
        sheetsUrl: e.SHEETS_API_URL,
        driveUrl: e.DRIVE_API_URL,
        businessAccountsUrl: e.GBP_ACCOUNT_MANAGEMENT_API_URL,
        businessInformationUrl: e.GBP_BUSINESS_INFORMATION_API_URL,
        businessPerformanceUrl: e.GBP_PERFORMANCE_API_URL,
        adsUrl: e.GOOGLE_ADS_API_URL,
        adsVersion: e.GOOGLE_ADS_API_VERSION,
        adsDeveloperToken: e.GOOGLE_ADS_DEVELOPER_TOKEN || null,
        adsDailyOperations: e.GOOGLE_ADS_DAILY_OPERATIONS,
      },
      meta: {
        appId: e.META_APP_ID || null,
        appSecret: e.META_APP_SECRET || null,
        graphUrl: e.META_GRAPH_URL,
        dialogUrl: e.META_DIALOG_URL,
        version: e.META_GRAPH_VERSION,
      },
      linkedin: {
        clientId: e.LINKEDIN_CLIENT_ID || null,
        clientSecret: e.LINKEDIN_CLIENT_SECRET || null,
        authUrl: e.LINKEDIN_AUTH_URL,
        apiUrl: e.LINKEDIN_API_URL,
        version: e.LINKEDIN_VERSION,
      },
      ahrefs: { apiUrl: e.AHREFS_API_URL },
      seranking: { apiUrl: e.SERANKING_API_URL },
      salesflare: { apiUrl: e.SALESFLARE_API_URL },
      semrush: { apiUrl: e.SEMRUSH_API_URL, unitsUrl: e.SEMRUSH_UNITS_URL },
      serpstat: { apiUrl: e.SERPSTAT_API_URL },
      rankranger: { apiUrl: e.RANKRANGER_API_URL },
      klaviyo: { apiUrl: e.KLAVIYO_API_URL, revision: e.KLAVIYO_REVISION },
      tiktok: {
        appId: e.TIKTOK_APP_ID || null,
        appSecret: e.TIKTOK_APP_SECRET || null,
        apiUrl: e.TIKTOK_API_URL,
        authUrl: e.TIKTOK_AUTH_URL,
      },
      mailchimp: {
        clientId: e.MAILCHIMP_CLIENT_ID || null,
        clientSecret: e.MAILCHIMP_CLIENT_SECRET || null,
        loginUrl: e.MAILCHIMP_LOGIN_URL,
        apiUrl: e.MAILCHIMP_API_URL,
      },
      base: { clientId: e.BASE_CLIENT_ID || null, clientSecret: e.BASE_CLIENT_SECRET || null, apiUrl: e.BASE_API_URL },
      accuranker: {
        clientId: e.ACCURANKER_CLIENT_ID || null,
        clientSecret: e.ACCURANKER_CLIENT_SECRET || null,
        url: e.ACCURANKER_URL,
      },
    },
  };
}

/** One entry of METRICS_ALLOW: an address and its prefix length (32 or 128 for a single address). */
/** Stripe's settings, or null when payments are off; a secret key without a publishable one is refused. */
function stripeConfig(e: z.infer<typeof ZEnv>): AppConfig["stripe"] {
  if (!e.STRIPE_SECRET_KEY) return null;
  if (!e.STRIPE_PUBLISHABLE_KEY) {
    throw new ConfigError("Invalid configuration:\n  STRIPE_PUBLISHABLE_KEY: is required with STRIPE_SECRET_KEY");
  }
  const api = new URL(e.STRIPE_API_URL);
  const protocol = api.protocol === "http:" ? "http" : "https";
  return {
    secretKey: e.STRIPE_SECRET_KEY,
    publishableKey: e.STRIPE_PUBLISHABLE_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null,
    api: { host: api.hostname, port: Number(api.port || (protocol === "http" ? 80 : 443)), protocol },
    jsUrl: e.STRIPE_JS_URL,
  };
}

export interface AddressRange {
  address: string;
  prefix: number;
  family: "ipv4" | "ipv6";
}

/** `10.0.0.0/8, ::1` → ranges; null when any entry is not an address or a CIDR range. */
export function parseAddressList(value: string): AddressRange[] | null {
  const ranges: AddressRange[] = [];
  for (const entry of value.split(",").map((part) => part.trim())) {
    if (entry === "") continue;
    const [address, prefixText] = entry.split("/");
    const version = net.isIP(address);
    if (version === 0) return null;
    const max = version === 4 ? 32 : 128;
    if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    if (prefix > max) return null;
    ranges.push({ address, prefix, family: version === 4 ? "ipv4" : "ipv6" });
  }
  return ranges;
}

function parseTrustProxy(value: string | undefined): AppConfig["trustProxy"] {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value;
}

/** A CSP frame-ancestors source this product accepts: any site, or an http(s) origin (wildcard subdomain allowed). */
const FRAME_ANCESTOR = /^(\*|https?:\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?)$/i;

function splitList(value: string): string[] {
  return value.split(/[\s,]+/).filter((item) => item !== "");
}

/** An OpenID Connect client: the issuer it discovers, and its credentials. */
export interface OidcClientConfig {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface SocialLoginConfig {
  google: OidcClientConfig | null;
  linkedin: OidcClientConfig | null;
  /** Facebook Login: the app, the dialog and Graph hosts and the Graph version (shared with the Meta connectors). */
  facebook: { appId: string; appSecret: string; dialogUrl: string; graphUrl: string; version: string } | null;
}

/** Social sign-in clients; an id without its secret (or the reverse) is refused rather than half-offered. */
function socialLoginConfig(e: z.infer<typeof ZEnv>): SocialLoginConfig {
  const pair = (idName: string, id: string | undefined, secretName: string, secret: string | undefined) => {
    if (!id && !secret) return null;
    if (!id || !secret) {
      throw new ConfigError(
        `Invalid configuration:\n  ${id ? secretName : idName}: is required with ${id ? idName : secretName}`,
      );
    }
    return { id, secret };
  };
  const oidc = (name: "GOOGLE" | "LINKEDIN", issuerUrl: string): OidcClientConfig | null => {
    const client = pair(
      `SOCIAL_${name}_CLIENT_ID`,
      e[`SOCIAL_${name}_CLIENT_ID`] || undefined,
      `SOCIAL_${name}_CLIENT_SECRET`,
      e[`SOCIAL_${name}_CLIENT_SECRET`] || undefined,
    );
    if (!client) return null;
    // A sign-in over plain HTTP could be read and replayed on the way; only local fakes may use it.
    if (e.NODE_ENV === "production" && new URL(issuerUrl).protocol !== "https:") {
      throw new ConfigError(`Invalid configuration:\n  SOCIAL_${name}_ISSUER_URL: must be https in production`);
    }
    return { issuerUrl: issuerUrl.replace(/\/+$/, ""), clientId: client.id, clientSecret: client.secret };
  };
  const facebook = pair(
    "SOCIAL_FACEBOOK_APP_ID",
    e.SOCIAL_FACEBOOK_APP_ID || undefined,
    "SOCIAL_FACEBOOK_APP_SECRET",
    e.SOCIAL_FACEBOOK_APP_SECRET || undefined,
  );
  return {
    google: oidc("GOOGLE", e.SOCIAL_GOOGLE_ISSUER_URL),
    linkedin: oidc("LINKEDIN", e.SOCIAL_LINKEDIN_ISSUER_URL),
    facebook: facebook && {
      appId: facebook.id,
      appSecret: facebook.secret,
      dialogUrl: e.META_DIALOG_URL.replace(/\/+$/, ""),
      graphUrl: e.META_GRAPH_URL.replace(/\/+$/, ""),
      version: e.META_GRAPH_VERSION,
    },
  };
}
