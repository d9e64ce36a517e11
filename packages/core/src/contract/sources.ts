import { z } from "zod";
import { WIDGET_FORMATS } from "../widgets/formats";
import { dataEnvelope } from "./common";

/**
 * How a connector authenticates (docs/product.md §3 catalogue, docs/decisions.md, the widget data path). 'none' is the Demo connector,
 * 'upload' the CSV/spreadsheet connector; 'site+key|secret' is WooCommerce's site URL plus a
 * token written as consumer key|consumer secret.
 */
export const AUTH_KINDS = ["oauth2", "account+token", "token", "site+key|secret", "none", "upload"] as const;
export const ZAuthKind = z.enum(AUTH_KINDS);
export type TAuthKind = z.infer<typeof ZAuthKind>;

/** One entry of the connector catalogue, shown in display order. */
export const ZConnector = z.object({
  key: z.string(),
  displayName: z.string(),
  order: z.number().int(),
  authKind: ZAuthKind,
  /** False when the connector cannot be used on this installation (e.g. no OAuth client configured). */
  available: z.boolean(),
  /** Short remark shown with the connector, e.g. 'beta', or why it is unavailable. */
  note: z.string().nullable(),
  /** OAuth connectors that also ask for an account before the consent screen: the field's label (AccuRanker). */
  oauthAccount: z.string().optional(),
  /** OAuth connectors that also take a pasted token (Meta's System User token): the token field's label. */
  tokenLogin: z.string().optional(),
  /** Present (true) when its sources can feed a Mission Control group's "Connected sources" (domain metrics). */
  domainMetrics: z.literal(true).optional(),
});
export type TConnector = z.infer<typeof ZConnector>;

/** A connector's name inside a sentence: "[beta]" labels the catalogue card, it is not part of the name. */
export function connectorNameInText(displayName: string): string {
  return displayName.replace(/\s*\[beta\]$/i, "");
}
export const ZConnectorListResponse = dataEnvelope(z.array(ZConnector));

/** A choice of a select input or a provider-loaded option list. */
export const ZOption = z.object({ value: z.string(), label: z.string() });
export type TOption = z.infer<typeof ZOption>;
export const ZOptionListResponse = dataEnvelope(z.array(ZOption));

/** Source of docs/product.md §3: `name` is the connector key; `invalid` raises banner 125 (docs/product.md §4). */
export const ZSource = z.object({
  id: z.string(),
  name: z.string(),
  account: z.string().nullable(),
  invalid: z.boolean(),
  properties: z.array(ZOption),
  /** When the source's login ends for good (ISO instant; Meta's ~60-day token), or null when it does not. */
  expiresAt: z.string().nullable(),
});
export type TSource = z.infer<typeof ZSource>;
export const ZSourceResponse = dataEnvelope(ZSource);
export const ZSourceListResponse = dataEnvelope(z.array(ZSource));

const credential = (label: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `The ${label} field is required.`)
    .max(max, `The ${label} may not be greater than ${max} characters.`)
    .optional();

/** Credential fields a source form may send; which are required depends on the connector's auth kind. */
export const ZSourceCredentials = z.strictObject({
  account: credential("account", 255),
  token: credential("token", 4096),
  site: credential("site", 2048),
});
export type TSourceCredentials = z.infer<typeof ZSourceCredentials>;

/** POST /api/sources: a connector key plus its credentials (OAuth sources arrive via the callback instead). */
export const ZSourceCreate = ZSourceCredentials.extend({
  name: z.string().trim().min(1, "The name field is required."),
});
export type TSourceCreate = z.infer<typeof ZSourceCreate>;

/** PUT /api/sources/{id}: re-authorise with new credentials. */
export const ZSourceUpdate = ZSourceCredentials;
export type TSourceUpdate = z.infer<typeof ZSourceUpdate>;

/** Which credential fields each auth kind needs (docs/product.md §3 catalogue). */
export const REQUIRED_CREDENTIALS: Record<TAuthKind, ReadonlyArray<keyof TSourceCredentials>> = {
  oauth2: [],
  "account+token": ["account", "token"],
  token: ["token"],
  "site+key|secret": ["site", "token"],
  none: [],
  upload: [],
};

/** Per-field messages for credentials missing or malformed for `authKind`; empty when acceptable. */
export function sourceCredentialErrors(authKind: TAuthKind, credentials: TSourceCredentials): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of REQUIRED_CREDENTIALS[authKind]) {
    if (!credentials[field]) errors[field] = `The ${field} field is required.`;
  }
  if (authKind === "site+key|secret" && credentials.token && !/^[^|]+\|[^|]+$/.test(credentials.token)) {
    errors.token = "The token must be written as consumer key|consumer secret.";
  }
  return errors;
}

/** GET /api/sources/{id}/{option}: the type form's current values travel as the query. */
export const ZSourceOptionQuery = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
export type TSourceOptionQuery = z.infer<typeof ZSourceOptionQuery>;

export const PARAM_KINDS = ["select", "multiselect", "text", "number", "boolean", "remote"] as const;
export const ZParamKind = z.enum(PARAM_KINDS);
export type TParamKind = z.infer<typeof ZParamKind>;

/**
 * One input parameter of a widget type (docs/decisions.md, the widget data path): required, an optional 'unless' rule
 * (docs/product.md §5 syntax), nested children validated when it is filled, and a fixed option list or,
 * for kind 'remote', the option name loaded from GET /api/sources/{id}/{option}.
 */
export const ZWidgetParam = z.object({
  key: z.string(),
  label: z.string(),
  kind: ZParamKind,
  required: z.boolean(),
  unless: z.string().optional(),
  options: z.array(ZOption).optional(),
  remote: z.string().optional(),
  /** The answer a new form starts with (e.g. a CSV's yes/no questions), so only unusual files need one. */
  default: z.union([z.boolean(), z.string(), z.number()]).optional(),
  get children() {
    return z.array(ZWidgetParam).optional();
  },
});
export type TWidgetParam = z.infer<typeof ZWidgetParam>;

/** A widget type a connector offers, from GET /api/configs/widgets/{type}. */
export const ZWidgetTypeConfig = z.object({
  type: z.string(),
  label: z.string(),
  connector: z.string(),
  params: z.array(ZWidgetParam),
  formats: z.array(z.enum(WIDGET_FORMATS)),
  /** docs/product.md §5: whether widgets of this type may merge when neither has a dimension. */
  mergeWithoutDimension: z.boolean().default(false),
  /**
   * Live data (the last minutes up to now) rather than the dashboard's range: its widgets suit the
   * realtime view, and the server caches its answers for a minute at most. Absent means false.
   */
  realtime: z.boolean().optional(),
});
export type TWidgetTypeConfig = z.infer<typeof ZWidgetTypeConfig>;
export const ZWidgetTypeConfigListResponse = dataEnvelope(z.array(ZWidgetTypeConfig));

/**
 * POST /api/oauth/{connector}/start: the address of the provider's consent screen for a new source,
 * or for re-authorising `source_id` (banner 125). The web opens it in a popup.
 */
export const ZOAuthStart = z.object({
  source_id: z.string().max(64).optional(),
  /** The account typed before the consent screen; required by connectors whose catalogue entry has `oauthAccount`. */
  account: z.string().max(255).optional(),
});
export const ZOAuthStartResponse = z.object({ data: z.object({ url: z.string() }) });
export const ZOAuthConnectorParams = z.object({ connector: z.string().min(1).max(64) });
/** GET /api/oauth/{connector}/callback: what the provider appends to the redirect address. */
export const ZOAuthCallbackQuery = z.object({
  code: z.string().max(4096).optional(),
  /** TikTok API for Business sends the code as `auth_code` (and `code`); the service reads it when `code` is absent. */
  auth_code: z.string().max(4096).optional(),
  state: z.string().max(256).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
  scope: z.string().max(4096).optional(),
});
/** What the callback page hands to the window that opened it (window.postMessage, same origin). */
export const OAUTH_MESSAGE_TYPE = "reportz:oauth";
export interface TOAuthResult {
  type: typeof OAUTH_MESSAGE_TYPE;
  ok: boolean;
  connector: string;
  /** The connected source's id when ok. */
  sourceId: string | null;
  /** What went wrong, in words for the user, when not ok. */
  message: string | null;
}
