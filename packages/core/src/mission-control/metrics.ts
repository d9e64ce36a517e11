import { formatNumber, NOT_AVAILABLE, type NumberFormat } from "../format/number";

/**
 * How a metric changes over a 7/30-day window (docs/decisions.md, "Mission Control metric sources"). A stock is a level that exists on every
 * day (domain rating, ranked keywords): its change is today's level against the level `window` days
 * ago. A flow is an amount that happens during a day (clicks, sessions): single days are noisy and
 * weekday-dependent, so a window is compared with the window before it.
 */
export const DOMAIN_METRIC_KINDS = ["stock", "flow"] as const;
export type DomainMetricKind = (typeof DOMAIN_METRIC_KINDS)[number];

/**
 * How a change is shown. Positions are counted, not divided: 12 → 9 is "3 positions" better, and a
 * percentage of a rank means nothing to a client. A rate (CTR) moves in percentage points.
 */
export type DomainChangeUnit = "percent" | "positions" | "points";

export interface DomainMetricDefinition {
  key: DomainMetricKey;
  label: string;
  kind: DomainMetricKind;
  /** Lower values are better news (average position): coloured inversely, alerts fire on a rise. */
  lowerIsBetter: boolean;
  format: NumberFormat;
  changeUnit: DomainChangeUnit;
  /** How a flow's window is totalled: summed (clicks), or averaged when the daily value is a rate (CTR). */
  aggregate: "sum" | "mean";
}

export const DOMAIN_METRIC_KEYS = [
  "domainRating",
  "referringDomains",
  "rankedKeywords",
  "averagePosition",
  "keywordsTop3",
  "keywordsTop10",
  "clicks",
  "impressions",
  "ctr",
  "sessions",
  "users",
  "conversions",
  "organicTraffic",
] as const;
export type DomainMetricKey = (typeof DOMAIN_METRIC_KEYS)[number];

type Entry = Omit<DomainMetricDefinition, "key" | "lowerIsBetter" | "format" | "changeUnit" | "aggregate"> &
  Partial<DomainMetricDefinition>;

function define(key: DomainMetricKey, entry: Entry): DomainMetricDefinition {
  return { key, lowerIsBetter: false, format: "number", changeUnit: "percent", aggregate: "sum", ...entry };
}

/** The domain metric catalogue: every metric a provider can deliver for a tracked domain. */
export const DOMAIN_METRICS: Readonly<Record<DomainMetricKey, DomainMetricDefinition>> = {
  domainRating: define("domainRating", { label: "Domain rating", kind: "stock" }),
  referringDomains: define("referringDomains", { label: "Referring domains", kind: "stock" }),
  rankedKeywords: define("rankedKeywords", { label: "Ranked keywords", kind: "stock" }),
  averagePosition: define("averagePosition", {
    label: "Average position",
    kind: "stock",
    lowerIsBetter: true,
    changeUnit: "positions",
  }),
  keywordsTop3: define("keywordsTop3", { label: "Keywords in top 3", kind: "stock" }),
  keywordsTop10: define("keywordsTop10", { label: "Keywords in top 10", kind: "stock" }),
  clicks: define("clicks", { label: "Clicks", kind: "flow" }),
  impressions: define("impressions", { label: "Impressions", kind: "flow" }),
  // CTR is stored in percent (3.2 = 3.2 %), as the product formats percent values. CTR of a window is not the sum of daily CTRs; without the clicks and impressions behind each
  // day the mean of the daily rates is the honest approximation.
  ctr: define("ctr", { label: "CTR", kind: "flow", format: "percent", changeUnit: "points", aggregate: "mean" }),
  sessions: define("sessions", { label: "Sessions", kind: "flow" }),
  users: define("users", { label: "Users", kind: "flow" }),
  conversions: define("conversions", { label: "Conversions", kind: "flow" }),
  organicTraffic: define("organicTraffic", { label: "Organic traffic", kind: "flow" }),
};

/** True for a key of the domain metric catalogue. */
export function isDomainMetricKey(value: unknown): value is DomainMetricKey {
  return typeof value === "string" && Object.hasOwn(DOMAIN_METRICS, value);
}

/** What a change looks like in a cell: the magnitude as text and the arrow ('up' = better rank for positions). */
export interface ChangeDisplay {
  text: string;
  arrow: "up" | "down" | null;
}

/**
 * The text and arrow of a change: a percent change for most metrics ('N/A' when there is none),
 * percentage points for rates, and positions gained or lost for rank, where moving from 12 to 9 is
 * "3 positions" with an up arrow, because the site moved up the results page.
 */
export function describeChange(
  metric: DomainMetricDefinition,
  change: { change: number | null; percentChange: number | null },
): ChangeDisplay {
  const amount =
    metric.changeUnit === "percent"
      ? change.percentChange
      : metric.lowerIsBetter
        ? negate(change.change)
        : change.change;
  if (amount === null || !Number.isFinite(amount)) return { text: NOT_AVAILABLE, arrow: null };
  // Rounded first so a change too small to show ('0%') gets no arrow either.
  const shown = Number(amount.toFixed(2));
  const magnitude = formatNumber(Math.abs(shown));
  const arrow = shown > 0 ? "up" : shown < 0 ? "down" : null;
  switch (metric.changeUnit) {
    case "percent":
      return { text: `${magnitude}%`, arrow };
    case "points":
      return { text: `${magnitude} ${Math.abs(shown) === 1 ? "pt" : "pts"}`, arrow };
    case "positions":
      return { text: `${magnitude} ${Math.abs(shown) === 1 ? "position" : "positions"}`, arrow };
  }
}

function negate(value: number | null): number | null {
  return value === null ? null : -value;
}
