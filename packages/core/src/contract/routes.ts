import { z } from "zod";
import {
  ZOpenWidgetAlertsResponse,
  ZWidgetAlertInput,
  ZWidgetAlertListResponse,
  ZWidgetAlertResponse,
} from "../widget-alerts/contract";
import { ZAuditCsv, ZAuditLogQuery, ZAuditLogResponse } from "./audit";
import { ZAuthResult, ZLogin, ZRegister, ZSetPassword } from "./auth";
import { ZAutomaticReportInput } from "./automatic-reports";
import {
  ZPaymentPortalResponse,
  ZPaymentSecure,
  ZPaymentSecureResponse,
  ZPaymentWebhook,
  ZPaymentWebhookAnswer,
  ZSubscriptionAnswer,
  ZSubscriptionConfirm,
  ZSubscriptionConfirmAnswer,
  ZSubscriptionInput,
} from "./billing";
import { ZCampaignMetricsSourcesResponse } from "./campaign-sources";
import {
  ZCampaignAlertSettings,
  ZCampaignAlertSettingsResponse,
  ZCampaignDomainInput,
  ZCampaignDomainResponse,
  ZCampaignInput,
  ZCampaignListResponse,
  ZCampaignResponse,
  ZCampaignShowQuery,
} from "./campaigns";
import { ZChartSnapshotsRequest, ZChartSnapshotsResponse } from "./chart-snapshots";
import { dataEnvelope } from "./common";
import { ZBillingDetailsUpdate, ZCompany, ZCompanyDelete, ZCompanyUpdate } from "./company";
import {
  ZCouponApply,
  ZCouponApplyResponse,
  ZCouponLookupParams,
  ZCouponLookupQuery,
  ZCouponLookupResponse,
} from "./coupons";
import {
  ZDashboardUpdate,
  ZDashboardUpdateResponse,
  ZDashboardWidgetDataRequest,
  ZEmbedLinkCreate,
  ZEmbedLinkResponse,
} from "./dashboard-actions";
import {
  ZDashboardCreate,
  ZDashboardListQuery,
  ZDashboardListResponse,
  ZDashboardResponse,
  ZDashboardSave,
  ZDashboardSaveResponse,
  ZDashboardShowQuery,
  ZPermalinkResponse,
  ZWidgetDataRequest,
  ZWidgetDataResponse,
} from "./dashboards";
import { ZPdfQuery } from "./exports";
import { ZFileDelete, ZFileKindParams, ZFileUploadResponse } from "./files";
import { ZDashboardInsightsResponse } from "./insights";
import { ZInvoicePdf, ZOrderListResponse } from "./invoices";
import {
  ZDiscountResyncQueued,
  ZDiscountResyncRequest,
  ZProbeEnqueued,
  ZProbeQuery,
  ZProbeRequest,
  ZProbeRuns,
} from "./ops";
import { ZHealth, ZPageData } from "./page-data";
import {
  ZPasskeyCreate,
  ZPasskeyCreatedResponse,
  ZPasskeyCreationOptionsResponse,
  ZPasskeyListResponse,
  ZPasskeyRemove,
  ZPasskeyRename,
  ZPasskeyRequestOptionsResponse,
  ZPasskeyResponse,
  ZPasskeySignIn,
} from "./passkeys";
import { ZBroadcastAuth, ZBroadcastAuthResponse, ZBroadcastUserAuth, ZBroadcastUserAuthResponse } from "./realtime";
import { ZAutomaticReportListResponse, ZAutomaticReportResponse } from "./report-records";
import { ROUTE_LINES, type RouteName } from "./route-lines";
import { ZSenderResponse, ZSenderUpdate } from "./sender";
import { ZSessionsEnded, ZSignedInSessionsResponse } from "./sessions";
import { ZSocialCallbackQuery, ZSocialLogin, ZSocialProviderParams, ZSocialRegister } from "./social-auth";
import {
  ZConnectorListResponse,
  ZOAuthCallbackQuery,
  ZOAuthConnectorParams,
  ZOAuthStart,
  ZOAuthStartResponse,
  ZOptionListResponse,
  ZSourceCreate,
  ZSourceListResponse,
  ZSourceOptionQuery,
  ZSourceResponse,
  ZSourceUpdate,
  ZWidgetTypeConfigListResponse,
} from "./sources";
import { ZTemplatesResponse } from "./templates";
import {
  ZCompanyTwoFactor,
  ZRecoveryCodes,
  ZTwoFactorCode,
  ZTwoFactorConfirm,
  ZTwoFactorSetup,
  ZTwoFactorStatus,
} from "./two-factor";
import { ZUser, ZUserCreate, ZUserData, ZUserUpdate } from "./users";

export * from "./route-lines";

/**
 * How a route's body arrives. `json`: parsed JSON, validated by the route's schema before the handler.
 * The others are read by the handler with the same contract, because the body schema cannot see them
 * as they come: `form` (JSON, urlencoded or multipart text fields, read as text like an HTML form),
 * `multipart` (fields plus file parts), `text` (JSON kept as text for the answer cache).
 */
export type BodyKind = "json" | "form" | "multipart" | "text";

export interface RouteContract {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyKind?: BodyKind;
  /** Schema of the 200 answer; null when the route answers 204 without a body. */
  output: z.ZodType | null;
  /** The route may also answer 204 (e.g. DELETE /api/company deletes, or cancels and answers the company). */
  mayBeEmpty?: true;
}

const NUL = "\u0000";

/** A path parameter (id, permalink): text the database can hold, within the router's length limit. */
export const zPathParam = z
  .string()
  .min(1)
  .max(100)
  .refine((value) => !value.includes(NUL), "The request may not contain NUL characters.");

/** A file part of a multipart body, as OpenAPI describes one. */
const zFilePart = z.string().meta({ format: "binary", description: "A file part" });

const ZIdParams = z.object({ id: zPathParam });
/** A PDF export's 200 answer: the file itself (202 and 304 while it is being made). */
const ZPdfFile = z.string().meta({ format: "binary", description: "The dashboard as a PDF" });
/** Source ids and option names are at most 64 characters in the database. */
const ZSourceIdParams = z.object({ id: zPathParam.pipe(z.string().max(64)) });
const ZPermalinkParams = z.object({ permalink: zPathParam });
const ZCampaignDomainParams = z.object({ id: zPathParam, domainId: zPathParam });
const ZDashboardWidgetParams = z.object({ id: zPathParam, widgetId: zPathParam });
/** The body of an action that takes no fields (any sent are ignored, as an HTML form's would be). */
const ZNoFields = z.object({}).meta({ description: "No fields" });
const ZUserResponse = dataEnvelope(ZUser);
const ZCompanyResponse = dataEnvelope(ZCompany);

/** Every API route's inputs and answer, by name (method and path in ROUTE_LINES). */
export const API = {
  register: { body: ZRegister, bodyKind: "form", output: ZAuthResult },
  login: { body: ZLogin, bodyKind: "form", output: ZAuthResult },
  setPassword: { body: ZSetPassword, bodyKind: "form", output: ZAuthResult },
  logout: { body: ZNoFields, bodyKind: "form", output: null },
  // The second step of sign-in (a pending sign-in's cookie and a code): the same answer as login.
  twoFactorLogin: { body: ZTwoFactorCode, bodyKind: "form", output: ZAuthResult },
  // The second step with a passkey instead of a code: options for the pending user's passkeys, then the answer.
  twoFactorPasskeyOptions: { body: ZNoFields, output: ZPasskeyRequestOptionsResponse },
  twoFactorPasskey: { body: ZPasskeySignIn, output: ZAuthResult },
  twoFactorShow: { output: dataEnvelope(ZTwoFactorStatus) },
  twoFactorSetup: { body: ZNoFields, output: dataEnvelope(ZTwoFactorSetup) },
  twoFactorEnable: { body: ZTwoFactorCode, output: dataEnvelope(ZRecoveryCodes) },
  twoFactorDisable: { body: ZTwoFactorConfirm, output: dataEnvelope(ZTwoFactorStatus) },
  twoFactorRecoveryCodes: { body: ZTwoFactorConfirm, output: dataEnvelope(ZRecoveryCodes) },
  companyTwoFactor: { body: ZCompanyTwoFactor, output: dataEnvelope(ZCompanyTwoFactor) },
  // Social sign-up and login (docs/product.md §7): the answer's redirect is the provider's consent page.
  socialRegister: { params: ZSocialProviderParams, body: ZSocialRegister, bodyKind: "form", output: ZAuthResult },
  socialLogin: { params: ZSocialProviderParams, body: ZSocialLogin, bodyKind: "form", output: ZAuthResult },
  socialCallback: {
    params: ZSocialProviderParams,
    query: ZSocialCallbackQuery,
    output: z.string().meta({ description: "A redirect into the app (signed in) or back to the page with the reason" }),
  },
  // Passwordless sign-in with a passkey (docs/product.md §7): options first, then the browser's answer.
  passkeySignInOptions: { body: ZNoFields, output: ZPasskeyRequestOptionsResponse },
  passkeySignIn: { body: ZPasskeySignIn, output: ZAuthResult },
  health: { output: ZHealth },
  pageData: { output: ZPageData },
  companyShow: { output: ZCompanyResponse },
  companyUpdate: {
    body: ZCompanyUpdate.extend({ logo: zFilePart.optional() }),
    bodyKind: "multipart",
    output: ZCompanyResponse,
  },
  companyDelete: { body: ZCompanyDelete, output: ZCompanyResponse, mayBeEmpty: true },
  companySenderUpdate: { body: ZSenderUpdate, output: ZSenderResponse },
  companySenderVerify: { body: ZNoFields, output: ZSenderResponse },
  companyDomainVerify: { body: ZNoFields, output: ZCompanyResponse },
  // The company audit log (admins): newest first, filtered, paged; and the same filter as CSV.
  auditLog: { query: ZAuditLogQuery, output: ZAuditLogResponse },
  auditLogCsv: { query: ZAuditLogQuery, output: ZAuditCsv },
  companySubscriptionCreate: { body: ZSubscriptionInput, output: ZSubscriptionAnswer },
  companySubscriptionChange: { body: ZSubscriptionInput, output: ZSubscriptionAnswer },
  // The page's check that its checkout was paid (Stripe's webhook may come later, or never).
  companySubscriptionConfirm: { body: ZSubscriptionConfirm, output: ZSubscriptionConfirmAnswer },
  paymentSecure: { body: ZPaymentSecure, output: dataEnvelope(ZPaymentSecureResponse) },
  // Stripe's signed event: kept as text, since the signature covers the exact bytes sent.
  paymentWebhook: { body: ZPaymentWebhook, bodyKind: "text", output: ZPaymentWebhookAnswer },
  // Stripe's billing portal for the company's card (banner 128's "change or top up your card").
  companyPaymentPortal: { body: ZNoFields, output: ZPaymentPortalResponse },
  // What the company's invoices are made out to (the subscription page's "Billing details", admins).
  companyBillingDetails: { body: ZBillingDetailsUpdate, output: ZCompanyResponse },
  // The company's invoices (admins), newest first, and each one as a PDF.
  ordersList: { output: ZOrderListResponse },
  orderPdf: { params: ZIdParams, output: ZInvoicePdf },
  // The reverse proxy's on-demand TLS "ask": 200 for a verified company domain, 404 for anything else.
  domainAllowed: {
    query: z.object({ domain: z.string().max(253) }),
    output: dataEnvelope(z.object({ domain: z.string() })),
  },
  // Public and rate-limited: the registration page checks the codes of its URL (docs/product.md §7).
  couponLookup: { params: ZCouponLookupParams, query: ZCouponLookupQuery, output: ZCouponLookupResponse },
  companyCouponApply: { body: ZCouponApply, output: ZCouponApplyResponse },
  usersList: { output: dataEnvelope(z.array(ZUser)) },
  userShow: { params: ZIdParams, output: ZUserResponse },
  userInvite: { body: ZUserCreate, output: ZUserResponse },
  userUpdate: { params: ZIdParams, body: ZUserUpdate, output: ZUserResponse },
  userDelete: { params: ZIdParams, output: null },
  userData: { body: ZUserData, output: ZUserResponse },
  // The signed-in user's own passkeys (the profile's "Passkeys" section).
  passkeysList: { output: ZPasskeyListResponse },
  passkeyRegistrationOptions: { body: ZNoFields, output: ZPasskeyCreationOptionsResponse },
  passkeyCreate: { body: ZPasskeyCreate, output: ZPasskeyCreatedResponse },
  passkeyUpdate: { params: ZIdParams, body: ZPasskeyRename, output: ZPasskeyResponse },
  passkeyDelete: { params: ZIdParams, body: ZPasskeyRemove, output: null },
  // An assertion of one of the signed-in user's own passkeys (allowCredentials: theirs), to confirm a removal.
  passkeyVerifyOptions: { body: ZNoFields, output: ZPasskeyRequestOptionsResponse },
  // The current user's own signed-in sessions (the profile's list): another user's session id is a 404.
  userSessionsList: { output: ZSignedInSessionsResponse },
  userSessionEnd: { params: ZIdParams, output: null },
  userSessionsEndOthers: { body: ZNoFields, output: ZSessionsEnded },
  sourcesList: { output: ZSourceListResponse },
  sourceCreate: {
    body: ZSourceCreate.extend({ file: zFilePart.optional() }),
    bodyKind: "multipart",
    output: ZSourceResponse,
  },
  sourceUpdate: {
    params: ZSourceIdParams,
    body: ZSourceUpdate.extend({ file: zFilePart.optional() }),
    bodyKind: "multipart",
    output: ZSourceResponse,
  },
  sourceDelete: { params: ZSourceIdParams, output: null },
  // The form's values may travel here too: a searchable picker sends what is typed (searchTerm) and its value (include).
  sourceProperties: { params: ZSourceIdParams, query: ZSourceOptionQuery, output: ZOptionListResponse },
  sourceOptions: {
    params: ZSourceIdParams.extend({ option: zPathParam.pipe(z.string().max(64)) }),
    query: ZSourceOptionQuery,
    output: ZOptionListResponse,
  },
  oauthStart: { params: ZOAuthConnectorParams, body: ZOAuthStart, output: ZOAuthStartResponse },
  oauthCallback: {
    params: ZOAuthConnectorParams,
    query: ZOAuthCallbackQuery,
    output: z.string().meta({ description: "An HTML page that hands the result to the window that opened it" }),
  },
  connectors: { output: ZConnectorListResponse },
  // A connector's mark (SVG markup), drawn by the web next to its name; the mark lives with the connector.
  connectorLogo: {
    params: z.object({ key: z.string().min(1).max(64) }),
    output: z.string().meta({ format: "binary", description: "The connector's logo as SVG" }),
  },
  widgetTypes: { params: z.object({ type: z.string().min(1).max(64) }), output: ZWidgetTypeConfigListResponse },
  templates: { output: ZTemplatesResponse },
  fileUpload: {
    params: ZFileKindParams,
    body: z.object({ file: zFilePart }),
    bodyKind: "multipart",
    output: ZFileUploadResponse,
  },
  fileDelete: { body: ZFileDelete, output: null },
  automaticReportsList: { output: ZAutomaticReportListResponse },
  automaticReportCreate: { body: ZAutomaticReportInput, output: ZAutomaticReportResponse },
  automaticReportUpdate: { params: ZIdParams, body: ZAutomaticReportInput, output: ZAutomaticReportResponse },
  automaticReportDelete: { params: ZIdParams, output: null },
  automaticReportSend: { params: ZIdParams, body: ZNoFields, output: ZAutomaticReportResponse },
  campaignsList: { output: ZCampaignListResponse },
  campaignMetricsSources: { output: ZCampaignMetricsSourcesResponse },
  campaignAlertSettings: { output: ZCampaignAlertSettingsResponse },
  campaignAlertSettingsUpdate: { body: ZCampaignAlertSettings, output: ZCampaignAlertSettingsResponse },
  campaignCreate: { body: ZCampaignInput, output: ZCampaignResponse },
  campaignShow: { params: ZIdParams, query: ZCampaignShowQuery, output: ZCampaignResponse },
  campaignUpdate: { params: ZIdParams, body: ZCampaignInput, output: ZCampaignResponse },
  campaignDelete: { params: ZIdParams, output: null },
  campaignDomainAdd: { params: ZIdParams, body: ZCampaignDomainInput, output: ZCampaignDomainResponse },
  campaignDomainRemove: { params: ZCampaignDomainParams, output: null },
  campaignDomainSnooze: { params: ZCampaignDomainParams, body: ZNoFields, output: ZCampaignDomainResponse },
  campaignDomainUnsnooze: { params: ZCampaignDomainParams, output: ZCampaignDomainResponse },
  widgetAlertsList: { params: ZDashboardWidgetParams, output: ZWidgetAlertListResponse },
  widgetAlertCreate: { params: ZDashboardWidgetParams, body: ZWidgetAlertInput, output: ZWidgetAlertResponse },
  widgetAlertUpdate: { params: ZIdParams, body: ZWidgetAlertInput, output: ZWidgetAlertResponse },
  widgetAlertDelete: { params: ZIdParams, output: null },
  widgetAlertSnooze: { params: ZIdParams, body: ZNoFields, output: ZWidgetAlertResponse },
  widgetAlertUnsnooze: { params: ZIdParams, output: ZWidgetAlertResponse },
  widgetAlertsOpen: { params: ZIdParams, output: ZOpenWidgetAlertsResponse },
  widgetData: { body: ZWidgetDataRequest, bodyKind: "text", output: ZWidgetDataResponse },
  chartSnapshots: { body: ZChartSnapshotsRequest, output: ZChartSnapshotsResponse },
  dashboardsList: { query: ZDashboardListQuery, output: ZDashboardListResponse },
  dashboardCreate: { body: ZDashboardCreate, output: ZPermalinkResponse },
  dashboardClone: { params: ZIdParams, body: ZNoFields, output: ZPermalinkResponse },
  dashboardRestore: { params: ZIdParams, body: ZNoFields, output: null },
  dashboardArchive: { params: ZIdParams, output: null },
  dashboardDelete: { params: ZIdParams, output: null },
  dashboardShow: { params: ZPermalinkParams, query: ZDashboardShowQuery, output: ZDashboardResponse },
  dashboardWidgetData: {
    params: z.object({ permalink: zPathParam, widgetId: zPathParam }),
    body: ZDashboardWidgetDataRequest,
    output: ZWidgetDataResponse,
  },
  dashboardInsights: {
    params: ZPermalinkParams,
    body: ZDashboardWidgetDataRequest,
    output: ZDashboardInsightsResponse,
  },
  dashboardPdf: { params: ZPermalinkParams, query: ZPdfQuery, output: ZPdfFile },
  dashboardRealtimePdf: { params: ZPermalinkParams, query: ZPdfQuery, output: ZPdfFile },
  dashboardUpdate: { params: ZIdParams, body: ZDashboardUpdate, output: ZDashboardUpdateResponse },
  dashboardSave: { params: ZIdParams, body: ZDashboardSave, bodyKind: "multipart", output: ZDashboardSaveResponse },
  dashboardEmbedCreate: { params: ZIdParams, body: ZEmbedLinkCreate, output: ZEmbedLinkResponse },
  dashboardEmbedRevoke: { params: ZIdParams, output: null },
  broadcastingAuth: { body: ZBroadcastAuth, output: ZBroadcastAuthResponse },
  broadcastingUserAuth: { body: ZBroadcastUserAuth, output: ZBroadcastUserAuthResponse },
  opsProbeEnqueue: { body: ZProbeRequest, output: ZProbeEnqueued },
  opsProbeRuns: { query: ZProbeQuery, output: ZProbeRuns },
  opsDiscountResync: { body: ZDiscountResyncRequest, output: ZDiscountResyncQueued },
} as const satisfies Record<RouteName, RouteContract>;

export type ApiContract = typeof API;

/** A browser FormData, described without the DOM types (this package runs on the server too). */
export interface MultipartForm {
  append(name: string, value: never, filename?: string): void;
}

type SchemaOf<R, K extends string> = R extends { [P in K]: infer S extends z.ZodType } ? S : never;
type HasKey<R, K extends string> = R extends { [P in K]: z.ZodType } ? true : false;

type ParamsInput<R> = HasKey<R, "params"> extends true ? { params: z.input<SchemaOf<R, "params">> } : unknown;
type QueryInput<R> = HasKey<R, "query"> extends true ? { query: z.input<SchemaOf<R, "query">> } : unknown;
type BodyInput<R> =
  HasKey<R, "body"> extends true
    ? R extends { bodyKind: "multipart" }
      ? { form: MultipartForm } | { body: z.input<SchemaOf<R, "body">> }
      : z.input<SchemaOf<R, "body">> extends Record<string, never>
        ? unknown
        : { body: z.input<SchemaOf<R, "body">> }
    : unknown;

/** What a caller passes to a route: its path parameters, query and body, each only where it has one. */
export type RouteInput<N extends RouteName> = ParamsInput<ApiContract[N]> &
  QueryInput<ApiContract[N]> &
  BodyInput<ApiContract[N]>;

/** What a route answers with 200 (undefined for a 204). */
export type RouteOutput<N extends RouteName> = ApiContract[N] extends { output: infer O extends z.ZodType }
  ? z.output<O> | (ApiContract[N] extends { mayBeEmpty: true } ? undefined : never)
  : undefined;

/** A route's method, path and schemas together. */
export function apiRoute<N extends RouteName>(name: N) {
  const line = ROUTE_LINES[name];
  const space = line.indexOf(" ");
  return {
    name,
    method: line.slice(0, space) as "GET" | "POST" | "PUT" | "DELETE",
    path: line.slice(space + 1),
    contract: API[name] as ApiContract[N],
  };
}
