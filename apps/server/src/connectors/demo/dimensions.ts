import type { DemoDimension } from "./model";

/** Dimensions of the Demo widget types: value weights and per-component biases give each breakdown a realistic mix. */

export const DATE: DemoDimension = { key: "date", label: "Date" };
export const COUNTRY: DemoDimension = {
  key: "country",
  label: "Country",
  values: [
    { name: "United States", weight: 38 },
    { name: "United Kingdom", weight: 14 },
    { name: "Germany", weight: 11, bias: { conversions: 1.1, orders: 1.1 } },
    { name: "Canada", weight: 8 },
    { name: "France", weight: 7 },
    { name: "Australia", weight: 6 },
    { name: "India", weight: 9, bias: { conversions: 0.5, orders: 0.5, revenue: 0.4, cost: 0.4 } },
    { name: "Netherlands", weight: 4 },
    { name: "Other", weight: 3 },
  ],
};
export const DEVICE: DemoDimension = {
  key: "device",
  label: "Device",
  values: [
    {
      name: "desktop",
      weight: 52,
      bias: { bounces: 0.85, duration: 1.3, conversions: 1.35, orders: 1.3, revenue: 1.35 },
    },
    { name: "mobile", weight: 43, bias: { bounces: 1.2, duration: 0.65, conversions: 0.6, orders: 0.7, revenue: 0.6 } },
    { name: "tablet", weight: 5 },
  ],
};
export const CHANNEL: DemoDimension = {
  key: "channel",
  label: "Channel",
  values: [
    { name: "Organic Search", weight: 41, bias: { bounces: 0.9 } },
    { name: "Direct", weight: 22, bias: { conversions: 1.3, orders: 1.3 } },
    { name: "Paid Search", weight: 14, bias: { conversions: 1.4, orders: 1.4 } },
    { name: "Referral", weight: 9 },
    { name: "Organic Social", weight: 8, bias: { bounces: 1.3, duration: 0.6, conversions: 0.5, orders: 0.5 } },
    { name: "Email", weight: 6, bias: { conversions: 1.8, orders: 1.8, bounces: 0.7 } },
  ],
};
export const PAGE: DemoDimension = {
  key: "page",
  label: "Page",
  values: [
    { name: "/", weight: 30 },
    { name: "/pricing", weight: 14, bias: { conversions: 2.5, bounces: 0.7 } },
    { name: "/blog/marketing-kpis", weight: 12, bias: { bounces: 1.4 } },
    { name: "/blog/seo-checklist", weight: 10, bias: { bounces: 1.35 } },
    { name: "/features", weight: 9 },
    { name: "/contact", weight: 5, bias: { conversions: 3 } },
    { name: "/about", weight: 4 },
    { name: "/docs/getting-started", weight: 8, bias: { duration: 1.8 } },
  ],
};
export const QUERY: DemoDimension = {
  key: "query",
  label: "Query",
  values: [
    { name: "marketing dashboard", weight: 22, bias: { clicks: 1.6, position: 0.4 } },
    { name: "kpi report template", weight: 15, bias: { clicks: 1.2, position: 0.7 } },
    { name: "seo reporting tool", weight: 13, bias: { position: 1.1 } },
    { name: "client reporting", weight: 11 },
    { name: "google analytics dashboard", weight: 10, bias: { clicks: 0.6, position: 1.6 } },
    { name: "ppc report", weight: 8 },
    { name: "white label reports", weight: 7, bias: { clicks: 1.3, position: 0.6 } },
    { name: "agency dashboard software", weight: 6 },
    { name: "social media report", weight: 5, bias: { clicks: 0.5, position: 1.8 } },
  ],
};
export const CAMPAIGN: DemoDimension = {
  key: "campaign",
  label: "Campaign",
  values: [
    { name: "Brand - Search", weight: 18, bias: { clicks: 3, cost: 0.8, conversions: 2.5 } },
    { name: "Generic - Search", weight: 30, bias: { cost: 1.3 } },
    { name: "Competitors - Search", weight: 12, bias: { cost: 1.6, conversions: 0.7 } },
    { name: "Remarketing - Display", weight: 25, bias: { clicks: 0.4, cost: 0.5, conversions: 0.8 } },
    { name: "Prospecting - Video", weight: 15, bias: { clicks: 0.3, cost: 0.7, conversions: 0.3 } },
  ],
};
export const SOCIAL_CHANNEL: DemoDimension = {
  key: "channel",
  label: "Network",
  values: [
    { name: "Facebook", weight: 38, bias: { engagement: 0.7 } },
    { name: "Instagram", weight: 30, bias: { engagement: 1.6 } },
    { name: "LinkedIn", weight: 20, bias: { engagement: 1.1 } },
    { name: "X", weight: 12, bias: { engagement: 0.6 } },
  ],
};
