/**
 * The ad platforms' ratio metrics, always computed from summed parts (a table row's, a window's, the
 * totals'), never averaged: an average of daily CTRs is not the period's CTR. A ratio over nothing
 * (no impressions, no clicks) is null: N/A, not 0.
 */

/** top / bottom × scale, or null when the bottom is not positive. */
export const ratio = (top: number, bottom: number, scale = 1): number | null =>
  bottom > 0 ? (top / bottom) * scale : null;

/** Click-through rate in percent: clicks per 100 impressions. */
export const ctr = (clicks: number, impressions: number): number | null => ratio(clicks, impressions, 100);

/** Cost per click, in the account's currency. */
export const cpc = (spend: number, clicks: number): number | null => ratio(spend, clicks);

/** Cost per 1,000 impressions, in the account's currency. */
export const cpm = (spend: number, impressions: number): number | null => ratio(spend, impressions, 1000);
