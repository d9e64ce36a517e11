import net from "node:net";
import path from "node:path";
import { isCountryCode, isEuCountry } from "@app/core";
import { z } from "zod";
import { PROVIDER_SETTINGS } from "../connectors";
import type { ProvidersConfig } from "../connectors/settings";

export type { ProvidersConfig } from "../connectors/settings";

const zBool = z
  .enum(["true", "false", "1", "0"])
  .optional()
  .transform((v) => v === "true" || v === "1");

// The shape Sentry's SDKs accept (they silently disable themselves on anything else).
const zDsn = z
  .string()
  .regex(/^https?:\/\/\w+(:\w*)?@[^/\s]+\/(.+\/)?\d+$/, "must be a Sentry DSN: https://key@host/project-id")
  .optional();

/** The server's own environment variables (the providers' are declared in their connectors' folders). */
const ZCoreEnv = z.object({
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
  // true: Stripe Tax computes the tax of checkouts and of the subscriptions this server changes.
  STRIPE_AUTOMATIC_TAX: zBool,
  // The seller on invoices (features/billing/invoices): default name SITE_TITLE; address lines split by "|".
  INVOICE_SELLER_NAME: z.string().trim().max(200).optional(),
  INVOICE_SELLER_ADDRESS: z.string().trim().max(1000).optional(),
  INVOICE_SELLER_VAT_ID: z.string().trim().max(32).optional(),
  // The seller's country (ISO 3166-1 alpha-2); with INVOICE_REVERSE_CHARGE an EU business buyer in
  // another member state gets the reverse-charge note instead of a VAT line.
  INVOICE_SELLER_COUNTRY: z
    .string()
    .trim()
    .toUpperCase()
    .refine(isCountryCode, "must be a two-letter ISO 3166-1 country code (IE, DE, GB…)")
    .optional(),
  INVOICE_REVERSE_CHARGE: zBool,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  RATE_LIMIT_AUTH_MAX: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).default(30),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).default(365),
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
  // The first wait (ms) before an automatic report's failed delivery is tried again; each next one doubles.
  REPORT_RETRY_BASE_MS: z.coerce.number().int().min(10).max(600_000).default(2_000),
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
  // A MaxMind City database (GeoLite2-City.mmdb or GeoIP2-City.mmdb): the profile's sessions show a coarse
  // place for each address. Empty: no place is shown.
  GEOIP_DATABASE: z.string().optional(),
  METRICS_ALLOW: z
    .string()
    .refine((v) => parseAddressList(v) !== null, "must be IP addresses or CIDR ranges, comma-separated")
    .default("127.0.0.0/8,::1"),
});

/**
 * Every environment variable the server reads: its own and each provider's, from the connector
 * registry (connectors/index.ts); `.env.example` lists the same (infra/env-file.test.ts).
 */
export const ZEnv = ZCoreEnv.extend(Object.assign({}, ...PROVIDER_SETTINGS.map((settings) => settings.env)));

type CoreEnv = z.infer<typeof ZCoreEnv>;

/** Each provider's part of the configuration, read by its own settings. */
function providersConfig(env: Record<string, unknown>): ProvidersConfig {
  return Object.fromEntries(
    PROVIDER_SETTINGS.map((settings) => [settings.name, settings.read(env as never)]),
  ) as unknown as ProvidersConfig;
}

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
    /** STRIPE_AUTOMATIC_TAX: checkouts and subscription changes ask Stripe Tax to compute the tax. */
    automaticTax: boolean;
  } | null;
  /** Who issues the invoices (INVOICE_SELLER_*): printed at the top of every invoice PDF. */
  invoiceSeller: { name: string; addressLines: string[]; vatId: string | null; country: string | null };
  /** INVOICE_REVERSE_CHARGE: EU business buyers in another member state get the reverse-charge note. */
  invoiceReverseCharge: boolean;
  logLevel: string;
  rateLimit: { authMax: number; windowMs: number };
  sessionTtlDays: number;
  /** AUDIT_RETENTION_DAYS: how long the company audit log keeps a row (a daily job deletes older ones). */
  auditRetentionDays: number;
  maxPdfWidgets: number;
  seedDemo: boolean;
  /**
   * Dashboards rendered by the server, a public viewer's and a member's own (PUBLIC_VIEW_SSR, on by
   * default), and how long their widgets' answers may take before the page is sent with the late cards
   * loading (…_BUDGET_MS).
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
  /** The MaxMind City database the sessions list places addresses with (absolute); null: no places. */
  geoipDatabase: string | null;
  chromiumPath: string;
  /** Hosts user-supplied connector addresses may reach although private (docs/decisions.md, "Connector HTTP layer"). */
  outboundAllowHosts: string[];
  /** Chromium pages rendering at once in this process. */
  browserPages: number;
  /** Jobs this process runs at once. */
  jobsConcurrency: number;
  /**
   * PDF and report previews: the print view's base address, each widget's data time limit there, and the
   * fixed wait after the last widget has drawn (PRINT_SETTLE_MS, 0 by default).
   */
  render: { baseUrl: string; widgetTimeoutMs: number; settleMs: number };
  /** The first wait before a failed report delivery is tried again (REPORT_RETRY_BASE_MS); it doubles each time. */
  reportRetryBaseMs: number;
  opsToken: string | null;
  /** Provider endpoints and OAuth clients of the connectors (docs/connectors.md). */
  providers: ProvidersConfig;
  /** Social sign-in clients (features/social-auth); null: that provider is not offered. */
  socialLogin: SocialLoginConfig;
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
  const e = parsed.data as CoreEnv;
  const providers = providersConfig(parsed.data);
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
  // The reverse charge is between two member states: without the seller's EU country it never applies.
  if (e.INVOICE_REVERSE_CHARGE && !isEuCountry(e.INVOICE_SELLER_COUNTRY)) {
    throw new ConfigError(
      "Invalid configuration:\n  INVOICE_SELLER_COUNTRY: INVOICE_REVERSE_CHARGE needs the seller's EU country (IE, DE, FR…)",
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
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
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
    geoipDatabase: e.GEOIP_DATABASE ? path.resolve(env.INIT_CWD ?? process.cwd(), e.GEOIP_DATABASE) : null,
    chromiumPath: e.CHROMIUM_PATH,
    outboundAllowHosts: e.OUTBOUND_ALLOW_HOSTS.split(",")
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
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
      country: e.INVOICE_SELLER_COUNTRY ?? null,
    },
    invoiceReverseCharge: e.INVOICE_REVERSE_CHARGE,
    render: {
      baseUrl: (e.RENDER_BASE_URL ?? `http://127.0.0.1:${e.PORT}`).replace(/\/+$/, ""),
      widgetTimeoutMs: e.PDF_WIDGET_TIMEOUT_MS,
      settleMs: e.PRINT_SETTLE_MS,
    },
    reportRetryBaseMs: e.REPORT_RETRY_BASE_MS,
    opsToken: e.OPS_TOKEN ?? null,
    socialLogin: socialLoginConfig(e, providers.meta),
    providers,
  };
}

/** One entry of METRICS_ALLOW: an address and its prefix length (32 or 128 for a single address). */
/** Stripe's settings, or null when payments are off; a secret key without a publishable one is refused. */
function stripeConfig(e: CoreEnv): AppConfig["stripe"] {
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
    automaticTax: e.STRIPE_AUTOMATIC_TAX,
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
function socialLoginConfig(e: CoreEnv, meta: ProvidersConfig["meta"]): SocialLoginConfig {
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
      dialogUrl: meta.dialogUrl.replace(/\/+$/, ""),
      graphUrl: meta.graphUrl.replace(/\/+$/, ""),
      version: meta.graphVersion,
    },
  };
}
