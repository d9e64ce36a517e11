import {
  BILLING_MESSAGES,
  isEuCountry,
  reverseChargeApplies,
  type TBillingDetailsUpdate,
  type TCompany,
} from "@app/core";
import type { AppContext } from "../../context";
import type { CompaniesTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import type { CompaniesService } from "../companies/service";
import { isStripeError, type Stripe } from "./stripe-client";

/** The billing details as stored on the company (the contract's input after its checks). */
export type BillingDetails = TBillingDetailsUpdate;

export const billingDetailsOf = (row: CompaniesTable): BillingDetails => ({
  name: row.billing_name,
  address: row.billing_address,
  postal_code: row.billing_postal_code,
  city: row.billing_city,
  country: row.billing_country,
  vat_id: row.vat_id,
});

const hasDetails = (details: BillingDetails) => Object.values(details).some((value) => value !== null);

/**
 * Stripe's type of a tax number: an EU member state's VAT number is `eu_vat`; a few other countries'
 * own numbers by their Stripe type. Any other country's number is printed on our invoices but not
 * sent (Stripe refuses a type that does not fit the country).
 */
const OTHER_TAX_ID_TYPES: Record<string, Stripe.CustomerCreateTaxIdParams.Type> = {
  GB: "gb_vat",
  CH: "ch_vat",
  NO: "no_vat",
  IS: "is_vat",
  AU: "au_abn",
  NZ: "nz_gst",
  CA: "ca_bn",
  US: "us_ein",
  IN: "in_gst",
};

export function stripeTaxId(details: BillingDetails): Stripe.CustomerCreateTaxIdParams | null {
  if (!details.vat_id || !details.country) return null;
  const type = isEuCountry(details.country) ? "eu_vat" : OTHER_TAX_ID_TYPES[details.country];
  if (!type) return null;
  // Stripe reads these without the spaces and dots people write them with; the Swiss and US forms keep theirs.
  const compact = type !== "ch_vat" && type !== "us_ein";
  return { type, value: compact ? details.vat_id.replace(/[\s.]/g, "").toUpperCase() : details.vat_id };
}

/**
 * The customer as Stripe keeps it (name, postal address, tax status): Stripe's own receipts and tax
 * calculation use them. The first address line is `line1`, any others `line2`. A buyer under the
 * reverse charge is `tax_exempt: reverse`, so Stripe charges no VAT the invoice would not show.
 */
export function stripeCustomerFields(
  details: BillingDetails,
  companyName: string,
  reverseCharge: { enabled: boolean; sellerCountry: string | null },
): Stripe.CustomerUpdateParams {
  const [line1, ...rest] = (details.address ?? "").split("\n").filter(Boolean);
  const located = details.country !== null;
  const reverse = reverseChargeApplies({
    enabled: reverseCharge.enabled,
    sellerCountry: reverseCharge.sellerCountry,
    buyerCountry: details.country,
    buyerVatId: details.vat_id,
  });
  return {
    name: details.name ?? companyName,
    address: located
      ? {
          line1: line1 ?? "",
          line2: rest.join(", "),
          postal_code: details.postal_code ?? "",
          city: details.city ?? "",
          country: details.country ?? "",
        }
      : "",
    tax_exempt: reverse ? "reverse" : "none",
  };
}

/**
 * The company's billing details (the subscription page's "Billing details"): checked by the contract,
 * told to the company's Stripe customer first (a number Stripe refuses is a 422 on `vat_id` and
 * nothing is saved), then stored. A checkout for a company with details and no customer yet makes the
 * customer with them (`customerFor`).
 */
export function billingDetailsService(ctx: AppContext, companies: CompaniesService, stripe: Stripe | null) {
  const reverseCharge = { enabled: ctx.config.invoiceReverseCharge, sellerCountry: ctx.config.invoiceSeller.country };

  async function provider<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      // A customer Stripe does not know is the caller's to judge (./billing-details.ts `save`).
      if (!isStripeError(error) || error.code === "resource_missing") throw error;
      if (error.code === "tax_id_invalid") throw AppError.validation({ vat_id: [BILLING_MESSAGES.taxIdRefused] });
      ctx.logger.warn({ err: error, stripeType: error.type, stripeCode: error.code }, `stripe: ${what} failed`);
      throw new AppError("unavailable", BILLING_MESSAGES.providerFailed);
    }
  }

  /**
   * The customer's name, address and tax number as the details say: the tax number is added before
   * the customer's others are removed, so a refused one leaves the old in place.
   */
  async function sync(client: Stripe, customer: string, details: BillingDetails, companyName: string) {
    await provider("customer update", () =>
      client.customers.update(customer, stripeCustomerFields(details, companyName, reverseCharge)),
    );
    const wanted = stripeTaxId(details);
    const existing = await provider("tax id list", () => client.customers.listTaxIds(customer, { limit: 100 }));
    const kept = existing.data.find((one) => wanted && one.type === wanted.type && one.value === wanted.value);
    if (wanted && !kept) await provider("tax id create", () => client.customers.createTaxId(customer, wanted));
    for (const old of existing.data) {
      if (old.id !== kept?.id) await provider("tax id delete", () => client.customers.deleteTaxId(customer, old.id));
    }
  }

  /**
   * Tells Stripe the details unless it no longer knows the customer (an operator's, or one deleted at
   * Stripe): then there is nothing to tell, and the checkout or the invoice go on as before.
   */
  async function syncKnown(client: Stripe, customer: string, details: BillingDetails, companyName: string) {
    try {
      await sync(client, customer, details, companyName);
    } catch (error) {
      if (!isStripeError(error) || error.code !== "resource_missing") throw error;
      ctx.logger.warn({ err: error, customer }, "stripe: the company's customer is unknown; billing details not sent");
    }
  }

  return {
    /** PUT /api/company/billing-details. */
    async save(companyId: string, input: TBillingDetailsUpdate): Promise<TCompany> {
      const row = await companies.load(companyId);
      if (stripe && row.stripe_customer_id) await syncKnown(stripe, row.stripe_customer_id, input, row.name);
      return companies.setBillingDetails(companyId, input);
    },

    /**
     * The Stripe customer a checkout of `row`'s is for, up to date with its billing details: the
     * company's own (told the details again), or a new one made with them (kept on the company, so a
     * checkout abandoned and opened again uses the same); null without either (Checkout makes one).
     */
    async customerFor(client: Stripe, row: CompaniesTable): Promise<string | null> {
      const details = billingDetailsOf(row);
      if (row.stripe_customer_id) {
        if (hasDetails(details)) await syncKnown(client, row.stripe_customer_id, details, row.name);
        return row.stripe_customer_id;
      }
      if (!hasDetails(details)) return null;
      const taxId = stripeTaxId(details);
      const fields = stripeCustomerFields(details, row.name, reverseCharge);
      const created = await provider("customer", () =>
        client.customers.create({
          name: fields.name ?? row.name,
          ...(fields.address ? { address: fields.address } : {}),
          tax_exempt: fields.tax_exempt ?? "none",
          ...(taxId && { tax_id_data: [taxId] }),
          metadata: { company_id: row.id },
        }),
      );
      await companies.setState(row.id, { stripe_customer_id: created.id });
      return created.id;
    },
  };
}

export type BillingDetailsService = ReturnType<typeof billingDetailsService>;
