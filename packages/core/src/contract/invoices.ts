import { z } from "zod";
import { formatDisplayDate, RANGE_SEPARATOR } from "../dates/display";
import { dataEnvelope } from "./common";

/** An order's status as its invoice shows it (one order per card provider invoice). */
export const ORDER_STATUSES = ["paid", "failed", "refunded"] as const;
export type TOrderStatus = (typeof ORDER_STATUSES)[number];

/** Words of the invoices page and PDF, shared by the server and the web. */
export const ORDER_STATUS_LABELS: Record<TOrderStatus, string> = {
  paid: "Paid",
  failed: "Payment failed",
  refunded: "Refunded",
};

/** One of the company's invoices (GET /api/orders), newest first. Amounts in integer cents. */
export const ZOrder = z.object({
  id: z.string(),
  /** INV-<year>-<6-digit sequence>, unique across all companies. */
  number: z.string(),
  /** When the order was made (the invoice date). */
  date: z.string(),
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  dashboards: z.number().int(),
  /** Months the plan renews after: 1 or 12. */
  interval: z.number().int(),
  amountCents: z.number().int(),
  /** ISO 4217, upper case. */
  currency: z.string(),
  status: z.enum(ORDER_STATUSES),
});
export type TOrder = z.infer<typeof ZOrder>;

export const ZOrderListResponse = dataEnvelope(z.array(ZOrder));

/** The invoice PDF's 200 answer: the file itself. */
export const ZInvoicePdf = z.string().meta({ format: "binary", description: "The invoice as a PDF" });

/** An amount in cents as the invoices write it: `$1,234.50`, `€12.00`. */
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(cents / 100);
}

/** The day of an ISO timestamp (UTC, as the provider bills) in the app's date format: "Nov 26, 2026". */
export function orderDay(iso: string | null): string {
  return iso ? formatDisplayDate(iso.slice(0, 10)) : "";
}

/** "Nov 26, 2026 - Dec 26, 2026"; "" when the provider told no period. */
export function orderPeriod(start: string | null, end: string | null): string {
  if (!start || !end) return "";
  return `${orderDay(start)}${RANGE_SEPARATOR}${orderDay(end)}`;
}

/** The plan's renewal, in words: 1 → "Monthly", 12 → "Yearly". */
export function intervalLabel(interval: number): string {
  return interval === 12 ? "Yearly" : interval === 1 ? "Monthly" : `Every ${interval} months`;
}
