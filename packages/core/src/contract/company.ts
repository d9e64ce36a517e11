import { z } from "zod";
import { COUPON_TYPES } from "../billing/coupons";
import { zFormBoolean } from "./common";

export const ZCompanyServices = z.object({ dashboards: z.number().int(), bonusDashboards: z.number().int() });

/** A coupon the company has, as its subscription page lists it (docs/product.md §5: the server's list decides). */
export const ZCompanyCoupon = z.object({
  code: z.string(),
  type: z.enum(COUPON_TYPES),
  value: z.number(),
  name: z.string(),
  appliedAt: z.string(),
});
export type TCompanyCoupon = z.infer<typeof ZCompanyCoupon>;

/** Company of docs/product.md §3 with its derived flags. */
export const ZCompany = z.object({
  id: z.string(),
  name: z.string(),
  domain: z.string().nullable(),
  emailUsername: z.string().nullable(),
  logo: z.string().nullable(),
  phone: z.string().nullable(),
  /** What the company's invoices are made out to (docs/decisions.md, "Invoices"); null when not given. */
  billingAddress: z.string().nullable(),
  vatId: z.string().nullable(),
  siteTitle: z.string(),
  /** The company's IANA zone (the browser's at registration): new report forms start on it. */
  timezone: z.string(),
  discount: z.number(),
  activeEmail: z.boolean(),
  domainCname: z.string().nullable(),
  /**
   * The CNAME record the company creates for `domainCname` (host = the domain, value = our target) and
   * whether it was found; null without a domain. `problem`: why the last Verify failed (that answer only).
   */
  domainRecord: z
    .object({
      type: z.literal("CNAME"),
      host: z.string(),
      value: z.string(),
      verified: z.boolean(),
      problem: z.string().nullable(),
    })
    .nullable(),
  /** The DNS records the company adds for its sender domain, each with the last check's outcome. */
  emailDns: z.array(
    z.object({
      type: z.string(),
      host: z.string(),
      value: z.string(),
      verified: z.boolean(),
      /** Why the last check did not find it as expected; null when verified or never checked. */
      problem: z.string().nullable(),
    }),
  ),
  fromAddress: z.string().nullable(),
  verifiedWhitelabel: z.boolean(),
  services: ZCompanyServices,
  /** The coupons applied to the company, oldest first (their bonus dashboards are in services). */
  coupons: z.array(ZCompanyCoupon),
  state: z.string(),
  expiresAt: z.string().nullable(),
  subscription: z.object({ id: z.string(), interval: z.number().int() }).nullable(),
  dashboardsCount: z.number().int(),
  campaignsCount: z.number().int(),
  isCanceled: z.boolean(),
  isOverdue: z.boolean(),
  isTrialWithoutSubscription: z.boolean(),
  hasSubscription: z.boolean(),
  canCreateDashboard: z.boolean(),
  canCreateAutomaticReport: z.boolean(),
});
export type TCompany = z.infer<typeof ZCompany>;

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `The ${label} may not be greater than ${max} characters.`)
    .optional()
    .transform((v) => (v === "" ? null : v));

/** Words of the custom domain checks (docs/product.md §3 domainCname), shared by the server and the form. */
export const CUSTOM_DOMAIN_MESSAGES = {
  hostname: "The custom domain must be a host name such as reports.agency.com (no https:// and no path).",
  ipAddress: "The custom domain must be a host name, not an IP address.",
  ownHost: "The custom domain cannot be this app's own address: use a domain of your own.",
  taken: "This custom domain is already used by another company.",
  notSet: "Set a custom domain first.",
} as const;

const HOST_LABEL = "(?!-)[a-z0-9-]{1,63}(?<!-)";
/** Two labels or more, the last alphabetic (so no IPv4 address passes), at most 253 characters. */
const HOSTNAME = new RegExp(`^(?=.{1,253}$)(${HOST_LABEL}\\.)+[a-z]{2,63}$`);
const IP_ADDRESS = /^(\d{1,3}(\.\d{1,3}){3}|\[?[0-9a-f:]*:[0-9a-f:.]*\]?)$/i;

/**
 * A custom domain as typed: trimmed, lower case, a trailing dot dropped; empty removes it (null).
 * Whether it is this app's own host or another company's is the server's to say.
 */
export const zCustomDomain = z
  .string()
  .trim()
  .toLowerCase()
  .transform((v) => (v === "" ? null : v.replace(/\.$/, "")))
  .superRefine((v, issue) => {
    if (v === null || HOSTNAME.test(v)) return;
    issue.addIssue({
      code: "custom",
      message: IP_ADDRESS.test(v) ? CUSTOM_DOMAIN_MESSAGES.ipAddress : CUSTOM_DOMAIN_MESSAGES.hostname,
    });
  });

/** POST /api/company (form data). The logo arrives as a file part, validated by the files service. */
export const ZCompanyUpdate = z.strictObject({
  name: z.string().trim().min(1, "The name field is required.").max(120).optional(),
  domain: optionalText(253, "domain").refine(
    (v) => v === undefined || v === null || /^(https?:\/\/)?[a-z0-9.-]+\.[a-z]{2,}(\/.*)?$/i.test(v),
    "The domain must be a valid domain.",
  ),
  phone: optionalText(40, "phone").refine(
    (v) => v === undefined || v === null || /^[+()0-9 .-]{5,40}$/.test(v),
    "The phone must be a valid phone number.",
  ),
  site_title: z.string().trim().max(80).optional(),
  /** The postal address printed on the company's invoices (several lines). */
  billing_address: optionalText(500, "billing address"),
  /** A VAT or tax id as the tax office writes it: letters, digits, spaces, dots and dashes. */
  vat_id: optionalText(32, "VAT ID").refine(
    (v) => v === undefined || v === null || /^[A-Za-z0-9][A-Za-z0-9 .\-/]{1,31}$/.test(v),
    "The VAT ID may only contain letters, digits, spaces, dots, dashes and slashes.",
  ),
  /** Host of the shared dashboards (white label); changing it clears its verification. */
  domain_cname: zCustomDomain.optional(),
  remove_logo: zFormBoolean.optional(),
});
export type TCompanyUpdate = z.infer<typeof ZCompanyUpdate>;

/** DELETE /api/company: delete the account, or cancel the subscription with a reason. */
export const ZCompanyDelete = z.strictObject({
  delete: zFormBoolean.default(false),
  cancellation: z
    .strictObject({ reason: z.string().trim().max(200).optional(), feedback: z.string().trim().max(2000).optional() })
    .default({}),
});
export type TCompanyDelete = z.infer<typeof ZCompanyDelete>;
