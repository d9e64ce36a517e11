import { countryName, reverseChargeApplies } from "@app/core";
import type { AppConfig } from "../../infra/config";
import type { CompaniesTable, OrdersTable } from "../../infra/db/schema";
import { billingDetailsOf } from "./billing-details";
import type { InvoiceParty as PrintedParty } from "./invoice-document";

/** A party as printed (./invoice-document.ts) and its country (ISO 3166-1 alpha-2; null when not given). */
export interface InvoiceParty extends PrintedParty {
  country: string | null;
}

/** Both parties of one invoice and whether the reverse charge applied between them. */
export interface InvoiceParties {
  seller: InvoiceParty;
  buyer: InvoiceParty;
  reverseCharge: boolean;
}

/** The operator's settings an invoice's parties are made from. */
export type InvoicingConfig = Pick<AppConfig, "invoiceSeller" | "invoiceReverseCharge">;

/**
 * Where the city comes before the postal code on an envelope ("Bristol BS1 4QA"); elsewhere the postal
 * code leads ("10115 Berlin").
 */
const CITY_FIRST = new Set(["GB", "IE", "US", "CA", "AU", "NZ", "IN", "ZA"]);

/** The address a company typed (one line per line), without blank lines. */
const linesOf = (text: string | null) =>
  (text ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The parties as they stand now: the seller's settings and the company's billing details (its name
 * until a billing name is given). An order stores them when it is recorded (migration 026), so a later
 * change of either never rewrites an invoice already issued.
 */
export function currentParties(config: InvoicingConfig, company: CompaniesTable): InvoiceParties {
  const details = billingDetailsOf(company);
  const buyer: InvoiceParty = {
    name: details.name ?? company.name,
    addressLines: [
      ...linesOf(details.address),
      (CITY_FIRST.has(details.country ?? "")
        ? [details.city, details.postal_code]
        : [details.postal_code, details.city]
      )
        .filter(Boolean)
        .join(" "),
      details.country ? countryName(details.country) : "",
    ].filter(Boolean),
    vatId: details.vat_id,
    country: details.country,
  };
  const seller = config.invoiceSeller;
  return {
    seller: { name: seller.name, addressLines: [...seller.addressLines], vatId: seller.vatId, country: seller.country },
    buyer,
    reverseCharge: reverseChargeApplies({
      enabled: config.invoiceReverseCharge,
      sellerCountry: seller.country,
      buyerCountry: details.country,
      buyerVatId: details.vat_id,
    }),
  };
}

/** The columns an order keeps its parties in (migration 026). */
export const partiesColumns = (parties: InvoiceParties) => ({
  seller_party: JSON.stringify(parties.seller),
  buyer_party: JSON.stringify(parties.buyer),
  reverse_charge: parties.reverseCharge ? 1 : 0,
});

const partyOf = (text: string | null): InvoiceParty | null => {
  if (!text) return null;
  try {
    const party = JSON.parse(text) as InvoiceParty;
    const ok =
      typeof party?.name === "string" &&
      Array.isArray(party.addressLines) &&
      party.addressLines.every((line) => typeof line === "string");
    return ok
      ? {
          name: party.name,
          addressLines: party.addressLines,
          vatId: party.vatId ?? null,
          country: party.country ?? null,
        }
      : null;
  } catch {
    return null;
  }
};

/**
 * The parties an order was issued to and from; null for an order recorded before they were stored
 * (its invoice is printed from the current details, as it always was).
 */
export function storedParties(row: OrdersTable): InvoiceParties | null {
  const seller = partyOf(row.seller_party);
  const buyer = partyOf(row.buyer_party);
  if (!seller || !buyer || row.reverse_charge === null) return null;
  return { seller, buyer, reverseCharge: Number(row.reverse_charge) === 1 };
}
