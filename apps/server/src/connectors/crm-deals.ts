/**
 * The deal metrics of the CRM connectors (SalesFlare, Base.me): each connector places its deals in the
 * range and says whether each is open, won or lost; the numbers are computed here, the same way for
 * both. Money is summed only for deals in the widget's currency (`value` null otherwise, since nothing
 * converts currencies); rates and averages come from the sums, never from summed rates.
 */

export type DealKind = "open" | "won" | "lost";

export interface CrmDeal {
  kind: DealKind;
  /** Null when the deal is in another currency than the widget's. */
  value: number | null;
  /** The stage's probability of winning, 0–100 (weighs the weighted pipeline). */
  probability: number;
}

export interface DealMetric {
  key: string;
  label: string;
  format: "number" | "money" | "percent";
  /** A row's value from its deals. */
  of: (deals: readonly CrmDeal[]) => number | null;
}

const round = (value: number) => Math.round(value * 100) / 100;
const sum = (deals: readonly CrmDeal[], kind: DealKind, weighted = false) =>
  deals
    .filter((deal) => deal.kind === kind && deal.value !== null)
    .reduce((total, deal) => total + (deal.value ?? 0) * (weighted ? deal.probability / 100 : 1), 0);
const count = (deals: readonly CrmDeal[], kind: DealKind) => deals.filter((deal) => deal.kind === kind).length;

export const DEAL_METRICS: readonly DealMetric[] = [
  { key: "pipelineValue", label: "Pipeline value", format: "money", of: (deals) => round(sum(deals, "open")) },
  {
    key: "weightedValue",
    label: "Weighted pipeline value",
    format: "money",
    of: (deals) => round(sum(deals, "open", true)),
  },
  { key: "openDeals", label: "Open deals", format: "number", of: (deals) => count(deals, "open") },
  { key: "wonValue", label: "Won value", format: "money", of: (deals) => round(sum(deals, "won")) },
  { key: "wonDeals", label: "Won deals", format: "number", of: (deals) => count(deals, "won") },
  { key: "lostDeals", label: "Lost deals", format: "number", of: (deals) => count(deals, "lost") },
  {
    key: "winRate",
    label: "Win rate",
    format: "percent",
    of: (deals) => {
      const decided = count(deals, "won") + count(deals, "lost");
      return decided > 0 ? round((count(deals, "won") / decided) * 100) : null;
    },
  },
  {
    key: "averageDealSize",
    label: "Average won deal size",
    format: "money",
    of: (deals) => {
      const won = deals.filter((deal) => deal.kind === "won" && deal.value !== null).length;
      return won > 0 ? round(sum(deals, "won") / won) : null;
    },
  },
];
