import type { TConnector, TWidgetTypeConfig } from "@app/core";
import type { ProvidersConfig } from "../infra/config";
import { accurankerConnector } from "./accuranker";
import { ahrefsConnector } from "./ahrefsV3";
import { baseMeConnector } from "./baseMe";
import { csvConnector } from "./csv";
import { demoConnector } from "./demo";
import { facebookAdsConnector } from "./facebookAds";
import { facebookSocialConnector } from "./facebookSocial";
import { googleAdsConnector } from "./googleAds";
import { googleAnalyticsConnector } from "./googleAnalytics";
import { googleBusinessProfileConnector } from "./googleMyBusiness";
import { googleSheetsConnector } from "./googleSheets";
import { instagramConnector } from "./instagram";
import type { DomainMetrics } from "./kit/domain-metrics";
import { klaviyoConnector } from "./klaviyo";
import { linkedinAdsConnector } from "./linkedinAds";
import { linkedinSocialConnector } from "./linkedinSocial";
import { mailchimpConnector } from "./mailchimp";
import { rankRangerConnector } from "./rankRanger";
import { salesflareConnector } from "./salesflare";
import { searchConsoleConnector } from "./searchConsole";
import { semrushConnector } from "./semrush";
import { serankingConnector } from "./seranking";
import { serpstatConnector } from "./serpstat";
import type { ProviderSettings } from "./settings";
import { tiktokConnector } from "./tiktok";
import type { Connector } from "./types";
import { wooCommerceConnector } from "./woocommerce";

export { type GoogleOAuth, googleOAuth } from "./google/oauth";
export { ProviderError, type ProviderErrorKind } from "./http/errors";
export type {
  DomainCoverage,
  DomainMetrics,
  DomainMetricsProvider,
  DomainMetricsRequest,
  DomainMetricsSource,
  DomainMetricValue,
} from "./kit/domain-metrics";
export { type MetaOAuth, metaOAuth } from "./meta/oauth";
export type { OAuthAdapter, OAuthAdapterFactory } from "./oauth/adapter";
export type { Connector, ConnectorRuntime, CredentialsCheck, QueryRequest, SourceHandle, UploadedFile } from "./types";
export { ConnectorError } from "./types";

/** Every connector in catalogue display order (docs/product.md §3): Demo first, CSV between Sheets (8) and Ahrefs (10). */
export const CONNECTORS: readonly Connector[] = [
  demoConnector,
  csvConnector,
  googleAnalyticsConnector,
  searchConsoleConnector,
  facebookAdsConnector,
  googleAdsConnector,
  googleBusinessProfileConnector,
  googleSheetsConnector,
  facebookSocialConnector,
  instagramConnector,
  ahrefsConnector,
  semrushConnector,
  rankRangerConnector,
  serpstatConnector,
  serankingConnector,
  salesflareConnector,
  wooCommerceConnector,
  klaviyoConnector,
  linkedinAdsConnector,
  linkedinSocialConnector,
  mailchimpConnector,
  tiktokConnector,
  baseMeConnector,
  accurankerConnector,
].sort((a, b) => a.order - b.order);

/** Each provider's settings once (a family's connectors share theirs): infra/config.ts composes the server's schema from them. */
export const PROVIDER_SETTINGS: readonly ProviderSettings[] = [
  ...new Set(CONNECTORS.flatMap((connector) => (connector.settings ? [connector.settings] : []))),
];

const byKey = new Map(CONNECTORS.map((connector) => [connector.key, connector]));
const typeIndex = new Map<string, { connector: Connector; config: TWidgetTypeConfig }>(
  CONNECTORS.flatMap((connector) =>
    connector.widgetTypes.map((config) => [config.type, { connector, config }] as const),
  ),
);

/** A connector by key, or undefined. */
export function connectorByKey(key: string): Connector | undefined {
  return byKey.get(key);
}

/**
 * The connectors whose sources give Mission Control a domain's metrics, with what they declare, in
 * the order their sources are asked (`domainMetrics.order`).
 */
export const DOMAIN_METRICS_CONNECTORS: readonly { key: string; domainMetrics: DomainMetrics }[] = CONNECTORS.flatMap(
  ({ key, domainMetrics }) => (domainMetrics ? [{ key, domainMetrics }] : []),
).sort((a, b) => a.domainMetrics.order - b.domainMetrics.order);

/** A widget type and the connector offering it, or undefined. */
export function widgetType(type: string): { connector: Connector; config: TWidgetTypeConfig } | undefined {
  return typeIndex.get(type);
}

/**
 * Days the providers of these widget instances are still filling in before today (the longest
 * `lagDays` of their connectors; none declared: 0). Insights and widget alerts judge no day inside it.
 * Not `settlingDays`: Meta revises numbers for 28 days, but yesterday's are already worth judging.
 */
export function lagDaysOf(instances: readonly { type: string }[]): number {
  return Math.max(0, ...instances.map((instance) => typeIndex.get(instance.type)?.connector.lagDays ?? 0));
}

/**
 * What this server lacks to connect a connector (environment variable names); empty when it can.
 * Connectors that are not built yet are not "missing" anything: they are simply not available.
 */
export function missingConfig(connector: Connector, providers: ProvidersConfig): string[] {
  return connector.missingConfig?.(providers) ?? [];
}

/**
 * The catalogue as the API shows it (GET /api/configs/connectors). A connector this server is not
 * configured for is listed as unavailable with the variables to set, so the operator knows and the
 * user is told before the click, not by a failure after it.
 */
export function catalogue(providers: ProvidersConfig): TConnector[] {
  return CONNECTORS.map((connector) => {
    const missing = missingConfig(connector, providers);
    const { key, displayName, order, authKind, available, note } = connector;
    return {
      key,
      displayName,
      order,
      authKind,
      available: available && missing.length === 0,
      note: missing.length > 0 ? `Not configured on this server (set ${missing.join(" and ")}).` : note,
      ...(connector.oauthAccount ? { oauthAccount: connector.oauthAccount } : {}),
      ...(connector.tokenLogin ? { tokenLogin: connector.tokenLogin } : {}),
      ...(connector.domainMetrics ? { domainMetrics: true } : {}),
    };
  });
}
