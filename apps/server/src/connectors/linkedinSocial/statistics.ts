import { z } from "zod";

/**
 * The three organization statistics LinkedIn Social reads (docs/connectors.md, "LinkedIn Social"), each
 * a time-bound finder answering one element per day (`timeGranularityType:DAY`), and how each metric is
 * made from the days' parts: counts are summed, the engagement rate is computed from the sums, and
 * unique impressions (people per day) have no range total — a member seen on two days is one member
 * over the range, and LinkedIn gives no de-duplicated figure for it.
 */

const ZCount = z
  .number()
  .nullish()
  .transform((value) => value ?? 0);
const ZTimeRange = z.object({ start: z.number(), end: z.number() });

const ZShareElement = z.object({
  timeRange: ZTimeRange,
  totalShareStatistics: z
    .object({
      impressionCount: ZCount,
      uniqueImpressionsCount: ZCount,
      clickCount: ZCount,
      likeCount: ZCount,
      commentCount: ZCount,
      shareCount: ZCount,
    })
    .partial()
    .default({}),
});
const ZFollowerElement = z.object({
  timeRange: ZTimeRange,
  followerGains: z.object({ organicFollowerGain: ZCount, paidFollowerGain: ZCount }).partial().default({}),
});
const ZViews = z.object({ pageViews: ZCount }).partial().optional();
const ZPageElement = z.object({
  timeRange: ZTimeRange,
  totalPageStatistics: z
    .object({
      views: z
        .object({ allPageViews: ZViews, allDesktopPageViews: ZViews, allMobilePageViews: ZViews })
        .partial()
        .default({}),
    })
    .partial()
    .default({}),
});

export type Parts = Record<string, number>;

export interface StatisticMetric {
  key: string;
  label: string;
  format: "number" | "percent";
  /** False for daily unique counts: no range total (see above). */
  summable: boolean;
  value(parts: Parts): number | null;
}

export interface Statistic {
  type: string;
  label: string;
  path: string;
  /** The finder's name and the parameter naming the organization. */
  finder: string;
  entityParam: string;
  /** The additive parts of one day's element. */
  parts(element: unknown): { start: number; parts: Parts };
  metrics: readonly StatisticMetric[];
}

const count = (key: string, label: string, summable = true): StatisticMetric => ({
  key,
  label,
  format: "number",
  summable,
  value: (parts) => parts[key] ?? 0,
});

export const STATISTICS: readonly Statistic[] = [
  {
    type: "linkedinSocial.shares",
    label: "LinkedIn post statistics",
    path: "/rest/organizationalEntityShareStatistics",
    finder: "organizationalEntity",
    entityParam: "organizationalEntity",
    parts(element) {
      const day = ZShareElement.parse(element);
      const s = day.totalShareStatistics;
      return {
        start: day.timeRange.start,
        parts: {
          impressions: s.impressionCount ?? 0,
          uniqueImpressions: s.uniqueImpressionsCount ?? 0,
          clicks: s.clickCount ?? 0,
          likes: s.likeCount ?? 0,
          comments: s.commentCount ?? 0,
          shares: s.shareCount ?? 0,
        },
      };
    },
    metrics: [
      count("impressions", "Impressions"),
      count("uniqueImpressions", "Unique impressions (daily)", false),
      count("clicks", "Clicks"),
      count("likes", "Reactions"),
      count("comments", "Comments"),
      count("shares", "Reposts"),
      {
        key: "engagementRate",
        label: "Engagement rate",
        format: "percent",
        summable: true,
        // LinkedIn's own definition: (clicks + reactions + comments + reposts) / impressions.
        value: (p) =>
          (p.impressions ?? 0) > 0
            ? (((p.clicks ?? 0) + (p.likes ?? 0) + (p.comments ?? 0) + (p.shares ?? 0)) / (p.impressions ?? 1)) * 100
            : null,
      },
    ],
  },
  {
    type: "linkedinSocial.followers",
    label: "LinkedIn follower gains",
    path: "/rest/organizationalEntityFollowerStatistics",
    finder: "organizationalEntity",
    entityParam: "organizationalEntity",
    parts(element) {
      const day = ZFollowerElement.parse(element);
      const organic = day.followerGains.organicFollowerGain ?? 0;
      const paid = day.followerGains.paidFollowerGain ?? 0;
      return { start: day.timeRange.start, parts: { organic, paid, total: organic + paid } };
    },
    metrics: [
      count("total", "New followers"),
      count("organic", "New followers (organic)"),
      count("paid", "New followers (paid)"),
    ],
  },
  {
    type: "linkedinSocial.pageViews",
    label: "LinkedIn page views",
    path: "/rest/organizationPageStatistics",
    finder: "organization",
    entityParam: "organization",
    parts(element) {
      const day = ZPageElement.parse(element);
      const views = day.totalPageStatistics.views ?? {};
      return {
        start: day.timeRange.start,
        parts: {
          pageViews: views.allPageViews?.pageViews ?? 0,
          desktopPageViews: views.allDesktopPageViews?.pageViews ?? 0,
          mobilePageViews: views.allMobilePageViews?.pageViews ?? 0,
        },
      };
    },
    metrics: [
      count("pageViews", "Page views"),
      count("desktopPageViews", "Page views (desktop)"),
      count("mobilePageViews", "Page views (mobile)"),
    ],
  },
];

export const statisticByType = new Map(STATISTICS.map((statistic) => [statistic.type, statistic]));
