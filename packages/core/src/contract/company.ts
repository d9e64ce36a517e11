import { z } from "zod";
import { COUPON_TYPES } from "../billing/coupons";
import { checkVatId, isCountryCode } from "../billing/tax-ids";
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
  /** What the company's invoices are made out to (the subscription page's "Billing details"). */
  billingDetails: z.lazy(() => ZBillingDetails),
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

/**
 * The company's billing details as its invoices print them (every field null until given): the name
 * the invoice is made out to (the company's name when null), the street lines, postal code, city,
 * country (ISO 3166-1 alpha-2) and VAT or tax number.
 */
export const ZBillingDetails = z.object({
  name: z.string().nullable(),
  address: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  vatId: z.string().nullable(),
});
export type TBillingDetails = z.infer<typeof ZBillingDetails>;

/** Words of the billing details' checks, shared by the server and the form. */
export const BILLING_DETAILS_MESSAGES = {
  addressLines: "The address may have at most 3 lines.",
  postalCode: "The postal code may only contain letters, digits, spaces and dashes.",
  country: "Choose a country from the list.",
  countryRequired: "Choose the country of this address.",
} as const;

const detailText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `The ${label} may not be greater than ${max} characters.`)
    .default("")
    .transform((v) => (v === "" ? null : v));

/**
 * PUT /api/company/billing-details: the whole section at once (an empty field clears it); nothing else
 * of the company changes. The VAT number is checked against the country (core `checkVatId`: an EU
 * member state's prefix and pattern, a generic pattern elsewhere) and stored as the check wrote it.
 */
export const ZBillingDetailsUpdate = z
  .strictObject({
    name: detailText(200, "billing name"),
    address: detailText(300, "address")
      .transform((v) =>
        v === null
          ? null
          : v
              .split(/\r?\n/)
              .map((line) => line.trim())
              .filter(Boolean)
              .join("\n"),
      )
      .refine((v) => v === null || v.split("\n").length <= 3, BILLING_DETAILS_MESSAGES.addressLines),
    postal_code: detailText(16, "postal code").refine(
      (v) => v === null || /^[A-Za-z0-9][A-Za-z0-9 -]*$/.test(v),
      BILLING_DETAILS_MESSAGES.postalCode,
    ),
    city: detailText(100, "city"),
    country: z
      .string()
      .trim()
      .toUpperCase()
      .default("")
      .transform((v) => (v === "" ? null : v))
      .refine((v) => v === null || isCountryCode(v), BILLING_DETAILS_MESSAGES.country),
    vat_id: detailText(32, "VAT number"),
  })
  // A refinement, not part of the transform: it runs even when another field failed, so every bad
  // field is reported at once.
  .superRefine((input, ctx) => {
    const located = input.address || input.postal_code || input.city || input.vat_id;
    if (located && !input.country) {
      ctx.addIssue({ code: "custom", path: ["country"], message: BILLING_DETAILS_MESSAGES.countryRequired });
    }
    if (typeof input.vat_id !== "string") return;
    const country = typeof input.country === "string" && isCountryCode(input.country) ? input.country : null;
    const check = checkVatId(input.vat_id, country);
    if (!check.ok) ctx.addIssue({ code: "custom", path: ["vat_id"], message: check.message });
  })
  .transform((input) => {
    const check = input.vat_id ? checkVatId(input.vat_id, input.country) : null;
    return check?.ok ? { ...input, vat_id: check.value } : input;
  });
export type TBillingDetailsUpdate = z.infer<typeof ZBillingDetailsUpdate>;
