import type { NumberFormat, TOption } from "@app/core";
import { CAMPAIGN, CHANNEL, COUNTRY, DATE, DEVICE, PAGE, QUERY, SOCIAL_CHANNEL } from "./dimensions";

/**
 * The Demo connector's data model. Each widget type generates a few raw daily "components"
 * (counts and sums that add up across days and dimension values) and derives its metrics from
 * them, so ratios such as CTR or bounce rate are always weighted ratios of sums, never sums of ratios.
 */

/** Demo sites offered as properties; the property changes the scale, trend and mix of the data. */
export const DEMO_SITES: readonly TOption[] = [
  { value: "acme-software", label: "acme-software.example (B2B software)" },
  { value: "northwind-shop", label: "northwind-shop.example (online store)" },
  { value: "bluebird-studio", label: "bluebird-studio.example (agency)" },
  // Its Organic Search collapsed from Oct 19 to Oct 31, 2026 (DEMO_INCIDENTS): a story for insights.
  { value: "harbor-outfitters", label: "harbor-outfitters.example (store; search traffic fell in late Oct 2026)" },
];

export interface Component {
  key: string;
  /** Counts are whole numbers; sums of money or seconds keep cents. */
  integer: boolean;
  /** A stock (followers) is read on the range's last day instead of summed over it. */
  stock?: boolean;
}

export interface DayContext {
  /** The site's daily level on this day: its size grown by the trend. */
  scale: number;
  /** `scale` multiplied by weekday, season and noise: the day's traffic. */
  volume: number;
  /** Uniform [0, 1) draws for this site and day, one per index. */
  rand(index: number): number;
  /** 0 = Sunday … 6 = Saturday. */
  dow: number;
}

export interface DemoMetric {
  key: string;
  label: string;
  format: NumberFormat;
  /** A fall is good news (bounce rate, average position, costs per result): changes colour inversely. */
  lowerIsBetter?: boolean;
  /** From summed components; a zero denominator gives NaN, shown as N/A. */
  value(c: Readonly<Record<string, number>>): number;
}

export interface DimensionValue {
  name: string;
  weight: number;
  /** Per-component multipliers of this value's share (mobile visits bounce more, for instance). */
  bias?: Readonly<Record<string, number>>;
}

export interface DemoDimension {
  key: string;
  label: string;
  /** Absent for the date dimension, whose rows are the days of the range. */
  values?: readonly DimensionValue[];
}

export interface DemoType {
  key: string;
  label: string;
  /** Weekday multipliers, Sunday first. */
  weekly: readonly number[];
  components: readonly Component[];
  day(ctx: DayContext): Record<string, number>;
  metrics: readonly DemoMetric[];
  dimensions: readonly DemoDimension[];
}

const ratio = (a: number, b: number) => (b === 0 ? Number.NaN : a / b);
const sum =
  (key: string): DemoMetric["value"] =>
  (c) =>
    c[key];
const count = (key: string): Component => ({ key, integer: true });
const amount = (key: string): Component => ({ key, integer: false });

// Office-hours audiences: busy midweek, quiet weekends.
const B2B_WEEK = [0.52, 1.08, 1.12, 1.1, 1.05, 0.9, 0.48];
// Shoppers buy more at weekends.
const SHOP_WEEK = [1.12, 0.94, 0.92, 0.95, 0.98, 1.04, 1.14];

export const DEMO_TYPES: readonly DemoType[] = [
  {
    key: "demo.analytics",
    label: "Website analytics",
    weekly: B2B_WEEK,
    components: [
      count("sessions"),
      count("users"),
      count("pageviews"),
      count("bounces"),
      amount("duration"),
      count("conversions"),
      amount("revenue"),
    ],
    day: ({ volume, rand }) => {
      const sessions = volume;
      const conversions = sessions * (0.016 + 0.008 * rand(5));
      return {
        sessions,
        users: sessions * (0.7 + 0.08 * rand(1)),
        pageviews: sessions * (2.3 + 0.6 * rand(2)),
        bounces: sessions * (0.4 + 0.1 * rand(3)),
        duration: sessions * (140 + 50 * rand(4)),
        conversions,
        revenue: conversions * (80 + 40 * rand(6)),
      };
    },
    metrics: [
      { key: "sessions", label: "Sessions", format: "number", value: sum("sessions") },
      { key: "users", label: "Users", format: "number", value: sum("users") },
      { key: "pageviews", label: "Pageviews", format: "number", value: sum("pageviews") },
      {
        key: "bounce_rate",
        label: "Bounce Rate",
        format: "percent",
        lowerIsBetter: true,
        value: (c) => ratio(c.bounces, c.sessions) * 100,
      },
      {
        key: "avg_session_duration",
        label: "Avg. Session Duration",
        format: "time",
        value: (c) => ratio(c.duration, c.sessions),
      },
      { key: "conversions", label: "Conversions", format: "number", value: sum("conversions") },
      { key: "revenue", label: "Revenue", format: "money", value: sum("revenue") },
    ],
    dimensions: [DATE, COUNTRY, DEVICE, CHANNEL, PAGE],
  },
  {
    key: "demo.search",
    label: "Search performance",
    weekly: B2B_WEEK,
    components: [count("impressions"), count("clicks"), amount("position")],
    day: ({ volume, rand }) => {
      const impressions = volume * 18;
      return {
        impressions,
        clicks: impressions * (0.028 + 0.014 * rand(1)),
        // Position is summed weighted by impressions, so its average is impression-weighted like the providers'.
        position: impressions * (7 + 5 * rand(2)),
      };
    },
    metrics: [
      { key: "clicks", label: "Clicks", format: "number", value: sum("clicks") },
      { key: "impressions", label: "Impressions", format: "number", value: sum("impressions") },
      { key: "ctr", label: "CTR", format: "percent", value: (c) => ratio(c.clicks, c.impressions) * 100 },
      {
        key: "position",
        label: "Avg. Position",
        format: "number",
        lowerIsBetter: true,
        value: (c) => ratio(c.position, c.impressions),
      },
    ],
    dimensions: [DATE, QUERY, PAGE, COUNTRY, DEVICE],
  },
  {
    key: "demo.ads",
    label: "Paid ads",
    weekly: [0.7, 1.05, 1.08, 1.08, 1.05, 0.95, 0.68],
    components: [count("impressions"), count("clicks"), amount("cost"), count("conversions")],
    day: ({ volume, rand }) => {
      const impressions = volume * 9;
      const clicks = impressions * (0.018 + 0.01 * rand(1));
      return {
        impressions,
        clicks,
        cost: clicks * (1.1 + 0.7 * rand(2)),
        conversions: clicks * (0.035 + 0.025 * rand(3)),
      };
    },
    metrics: [
      { key: "impressions", label: "Impressions", format: "number", value: sum("impressions") },
      { key: "clicks", label: "Clicks", format: "number", value: sum("clicks") },
      { key: "cost", label: "Cost", format: "money", value: sum("cost") },
      { key: "conversions", label: "Conversions", format: "number", value: sum("conversions") },
      { key: "cpc", label: "CPC", format: "money", lowerIsBetter: true, value: (c) => ratio(c.cost, c.clicks) },
      { key: "ctr", label: "CTR", format: "percent", value: (c) => ratio(c.clicks, c.impressions) * 100 },
      {
        key: "cost_per_conversion",
        label: "Cost / Conversion",
        format: "money",
        lowerIsBetter: true,
        value: (c) => ratio(c.cost, c.conversions),
      },
    ],
    dimensions: [DATE, CAMPAIGN, DEVICE, COUNTRY],
  },
  {
    key: "demo.social",
    label: "Social media",
    weekly: [0.82, 1.04, 1.06, 1.05, 1.02, 0.96, 0.86],
    components: [{ key: "followers", integer: true, stock: true }, count("reach"), count("engagement"), count("posts")],
    day: ({ scale, volume, rand, dow }) => {
      // Followers follow the site's trend line (not weekday traffic), so the stock grows smoothly day by day.
      const followers = scale * 2.6 + 25 * rand(1);
      const reach = volume * (0.3 + 0.2 * rand(2));
      const weekend = dow === 0 || dow === 6;
      return {
        followers,
        reach,
        engagement: reach * (0.035 + 0.02 * rand(3)),
        posts: Math.floor(rand(4) * (weekend ? 1.4 : 2.6)),
      };
    },
    metrics: [
      { key: "followers", label: "Followers", format: "number", value: sum("followers") },
      { key: "reach", label: "Reach", format: "number", value: sum("reach") },
      { key: "engagement", label: "Engagement", format: "number", value: sum("engagement") },
      {
        key: "engagement_rate",
        label: "Engagement Rate",
        format: "percent",
        value: (c) => ratio(c.engagement, c.reach) * 100,
      },
      { key: "posts", label: "Posts", format: "number", value: sum("posts") },
    ],
    dimensions: [DATE, SOCIAL_CHANNEL],
  },
  {
    key: "demo.ecommerce",
    label: "E-commerce",
    weekly: SHOP_WEEK,
    components: [count("sessions"), count("orders"), amount("revenue")],
    day: ({ volume, rand }) => {
      const sessions = volume * 1.4;
      const orders = sessions * (0.018 + 0.01 * rand(1));
      return { sessions, orders, revenue: orders * (55 + 30 * rand(2)) };
    },
    metrics: [
      { key: "orders", label: "Orders", format: "number", value: sum("orders") },
      { key: "revenue", label: "Revenue", format: "money", value: sum("revenue") },
      {
        key: "average_order_value",
        label: "Average Order Value",
        format: "money",
        value: (c) => ratio(c.revenue, c.orders),
      },
      {
        key: "conversion_rate",
        label: "Conversion Rate",
        format: "percent",
        value: (c) => ratio(c.orders, c.sessions) * 100,
      },
      { key: "sessions", label: "Sessions", format: "number", value: sum("sessions") },
    ],
    dimensions: [DATE, CHANNEL, COUNTRY, DEVICE],
  },
];

/** A Demo widget type by key, or undefined. */
export function demoType(key: string): DemoType | undefined {
  return DEMO_TYPES.find((type) => type.key === key);
}
