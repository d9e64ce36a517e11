import type { DayRange, TAuthKind, TOption, TSourceOptionQuery, TTable, TWidgetTypeConfig } from "@app/core";
import type { ProvidersConfig } from "../infra/config";
import { AppError } from "../infra/errors";
import type { RateLimitStore } from "../infra/rate-limit-store";
import type { ApiDescriptionLoader } from "./kit/description";
import type { DomainMetrics } from "./kit/domain-metrics";
import type { OAuthAdapterFactory } from "./oauth/adapter";
import type { ProviderSettings } from "./settings";

/** What a connector may use of the server: provider endpoints and clients, shared counters. */
export interface ConnectorRuntime {
  providers: ProvidersConfig;
  /** Counters every process shares (quota buckets, retry budgets). */
  counters: RateLimitStore;
  /** Hosts user-supplied addresses may reach although private (OUTBOUND_ALLOW_HOSTS). */
  outboundAllowHosts: readonly string[];
  /** The server's log, for what a provider tells in passing (credits running low); absent in unit tests. */
  logger?: { warn(details: Record<string, unknown>, message: string): void };
}

/** An uploaded file handed to an upload connector for checking before it is stored. */
export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

/**
 * What a connector sees of a source: its identity, opened credentials and properties, and read
 * access to the company's uploaded files. Built by the sources service, always for the session's company.
 */
export interface SourceHandle {
  id: string;
  companyId: string;
  /** Connector key. */
  connector: string;
  account: string | null;
  /** Credentials opened from their sealed form; never logged. Replaced when `saveCredentials` stores new ones. */
  credentials: Readonly<Record<string, string>>;
  properties: readonly TOption[];
  /** Bytes of one of the company's uploaded files by file id, or null when it is gone. */
  readFile(fileId: string): Promise<Buffer | null>;
  /** Stores new credentials (a refreshed OAuth token), sealed, for this source. */
  saveCredentials(credentials: Record<string, string>): Promise<void>;
  runtime: ConnectorRuntime;
}

/** A login typed into the sources form (account + token, token, site + key|secret), to check with the provider. */
export interface CredentialsCheck {
  account: string | null;
  /** `token` and `site` as typed (the token is sealed once the source is stored). */
  credentials: Readonly<Record<string, string>>;
  runtime: ConnectorRuntime;
}

/** Type-form values of one widget instance, normalised (declared parameters only, no calculated metrics). */
export type QueryInputs = Readonly<Record<string, unknown>>;

/** One upstream query: one widget type over one date range (the data path asks again for the comparison range). */
export interface QueryRequest {
  source: SourceHandle;
  type: string;
  inputs: QueryInputs;
  range: DayRange;
  /** The dashboard's IANA zone; providers that report in UTC shift days by it. */
  timezone: string;
  /**
   * The other ranges the same widget request asks of this query (its comparison period, or the current
   * one when this is the comparison). A connector whose provider answers several ranges in one request
   * may ask them together and keep that answer briefly for the companion's own call; the table it
   * returns is still this range's alone, and the stored result's key does not include them.
   */
  companions?: readonly DayRange[];
}

/** Context of a remote option list: the source and the type form's current values. */
export interface OptionsContext {
  source: SourceHandle;
  form: TSourceOptionQuery;
}

/**
 * A data-source connector (docs/decisions.md, the widget data path). Errors other than AppError thrown by `options` or
 * `query` count as the source failing: the data path marks the source invalid (banner 125) and the
 * widget shows 'Data Error'. An AppError (422) means the form's values are wrong, not the source.
 */
export interface Connector {
  key: string;
  displayName: string;
  /** The provider's mark as SVG markup (32×32 view box, `role="img"` and an aria-label "… logo"): the web shows it inline. */
  logo: string;
  /** Its provider's settings (environment variables and their part of `config.providers`); a family's connectors share one. */
  settings?: ProviderSettings;
  /** Catalogue display order (docs/product.md §3). */
  order: number;
  authKind: TAuthKind;
  /** False for connectors this release cannot connect; the catalogue shows them with `note`. */
  available: boolean;
  note: string | null;
  widgetTypes: readonly TWidgetTypeConfig[];
  /** Upload connectors check a file's content before it is stored (422 on `file` when it is not acceptable). */
  upload?: {
    extension: string;
    check(file: UploadedFile): void;
  };
  /** Properties a new source starts with (demo sites); upload sources get theirs from their files. */
  initialProperties?(): TOption[];
  /** A remote option list named by a parameter's `remote` (properties, metrics, columns …). */
  options(kind: string, context: OptionsContext): Promise<TOption[]>;
  query(request: QueryRequest): Promise<TTable>;
  /**
   * Configuration this server lacks for the connector (environment variable names), or an empty list.
   * A connector with something missing is listed as not configured, with the names, for the operator.
   */
  missingConfig?(providers: ProvidersConfig): string[];
  /**
   * Provider connectors: days the provider keeps revising after they end (GA4 about 3, Meta up to 28).
   * Declaring it keeps the connector's results in the database and serves them by their age, and when
   * the provider fails (docs/decisions.md, "Persistent results").
   */
  settlingDays?: number;
  /**
   * Days before today whose numbers the provider is still filling in (Search Console's fresh data, GA4's
   * processing, late Ads conversions): insights say nothing about a range ending in them (core
   * `rangeSettled`). Absent: none.
   */
  lagDays?: number;
  /**
   * The filter a widget instance's inputs apply, in words a client reads under the widget ("Query does
   * not contain “seo”"), or null without one: a filtered table must not pass for the whole site's.
   */
  describeFilter?(type: string, inputs: Readonly<Record<string, unknown>>): string | null;
  /**
   * Per widget type, the dimension values insights may ask the same query by (docs/decisions.md,
   * insights budget): `date` for a metric's daily history, `breakdown` the most informative dimension
   * for a widget without one (channel, campaign, device…). A type not listed gets neither.
   */
  insightDimensions?: Readonly<Record<string, { date?: string; breakdown?: string }>>;
  /**
   * Whether an optional query may ask the provider for this instance now (a report's pre-warm, insights'
   * history and breakdown): false while its allowance is held or down to the reserve kept for people
   * viewing dashboards (a GA4 property's tokens, a Meta usage hold). Absent: always.
   */
  prewarmAllowed?(counters: RateLimitStore, type: string, inputs: Readonly<Record<string, unknown>>): Promise<boolean>;
  /**
   * Credentials connectors: asks the provider whether a typed login works, before the source is stored
   * (create) or replaced (re-authorise). A ProviderError of kind `auth` or `input` becomes the form's
   * 422 on its `field` (default `token`) in the provider's words; a provider not answering is a 422
   * saying so. Should answer within a few seconds (a short `timeoutMs`, one attempt). May return the
   * account's name as the provider shows it, stored as the source's account, and the credentials to
   * store instead of the typed ones (a pasted token kept in the shape the connector's OAuth login
   * stores, with its expiry).
   */
  verify?(check: CredentialsCheck): Promise<{ account?: string; credentials?: Record<string, string> } | undefined>;
  /**
   * OAuth connectors that also take a pasted token (Meta's System User token): the token field's label.
   * The token goes through `verify` like a credentials connector's.
   */
  tokenLogin?: string;
  /** OAuth connectors: their provider family's OAuth adapter, built from the server's configuration. */
  oauth?: OAuthAdapterFactory;
  /**
   * OAuth connectors that also ask for an account before the consent screen (AccuRanker, docs/product.md §3):
   * the label of the field; the typed account reaches the adapter's exchange and becomes the source's account.
   */
  oauthAccount?: string;
  /**
   * False when these inputs give the same table whatever the range (a CSV without a date column):
   * a comparison period would only repeat the current numbers, so none is sent. Absent means true.
   */
  followsRange?(inputs: QueryInputs): boolean;
  /**
   * Providers that publish a machine-readable description of their API: the pinned copy in the
   * connector's folder (kit/description.ts). Absent where the provider publishes none; docs/connectors.md
   * then names the documentation pages each shape came from.
   */
  description?: ApiDescriptionLoader;
  /**
   * What Mission Control reads of a domain from this connector's sources (kit/domain-metrics.ts): the
   * metrics, how a source is matched to a domain and read, and the server's own key when it has one.
   * Absent: its sources feed no group.
   */
  domainMetrics?: DomainMetrics;
}

/**
 * Thrown by connectors when the provider cannot answer: code source_error of the error table. The
 * detail is for logs only; the user sees 'Data Error' (and the sources service marks the source invalid).
 */
export class ConnectorError extends AppError {
  constructor(readonly detail: string) {
    super("source_error");
  }
}
