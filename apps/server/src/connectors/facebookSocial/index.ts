import type { TTable } from "@app/core";
import { z } from "zod";
import type { ProvidersConfig } from "../../infra/config";
import { AppError } from "../../infra/errors";
import { type MetricDeclaration, metricHeader } from "../kit/metrics";
import { graphAuth } from "../meta/oauth";
import { dayOfEndTime, daysOf, managedPages, windows } from "../meta/pages";
import { graphPagesLoader } from "../meta/pages-description";
import { metaSettings } from "../meta/settings";
import { graphVersion, metaGraph, metaOAuthAdapter, missingMeta } from "../meta/shared";
import { dimensionParam, toOptions, widgetTypeConfig } from "../options";
import type { Connector } from "../types";
import { logo } from "./logo";

/**
 * Facebook Social: Page insights (docs/connectors.md). Pages and their Page tokens from `/me/accounts`
 * (the login's user token), numbers from `GET /{page-id}/insights?metric=…&period=day&since=&until=`
 * with the Page token, at most 90 days per call: longer ranges are asked in 90-day windows and joined.
 * Only metrics that exist after Meta's 2025 removals are offered (`page_impressions*` went on
 * 2025-06-15, `page_fans*` on 2025-11-15); a widget that still names one gets Meta's own refusal (422).
 * Required inputs (docs/product.md §5): property (the Page), metrics.
 */

const ZInsights = z.object({
  data: z
    .array(
      z.object({
        name: z.string(),
        period: z.string().default("day"),
        values: z
          .array(
            z.object({
              value: z.union([z.number(), z.record(z.string(), z.number())]).optional(),
              end_time: z.string().optional(),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
});

/** Page insights keep moving for about two days after a day ends; three days keeps a margin. */
export const FACEBOOK_SOCIAL_SETTLING_DAYS = 3;
/** Yesterday's page insights are still coming in for about two days: not judged until then. (insights and widget alerts, `lagDays`) */
export const FACEBOOK_SOCIAL_LAG_DAYS = 2;
/** Meta's longest since/until span for Page insights. */
const MAX_DAYS = 90;

/**
 * How a range's total is made from its days: `sum` for counts of events, `last` for a stock (the
 * follower count on the last day), `none` for daily unique counts (a viewer on two days is one viewer
 * over the range, and Meta gives no de-duplicated figure for a range: no total rather than a wrong one).
 */
type Total = "sum" | "last" | "none";
interface PageMetric extends Omit<MetricDeclaration, "format"> {
  total: Total;
}
const METRICS: PageMetric[] = [
  { key: "page_media_view", label: "Views", total: "sum" },
  { key: "page_total_media_view_unique", label: "Viewers (daily)", total: "none" },
  { key: "page_post_engagements", label: "Post engagements", total: "sum" },
  { key: "page_views_total", label: "Page visits", total: "sum" },
  { key: "page_follows", label: "Followers", total: "last" },
  { key: "page_daily_follows_unique", label: "New follows", total: "sum" },
  { key: "page_daily_unfollows_unique", label: "Unfollows", total: "sum", lowerIsBetter: true },
  { key: "page_video_views", label: "Video views", total: "sum" },
];
const DIMENSIONS = [{ key: "date", label: "Date" }];

const WIDGET_TYPE = widgetTypeConfig({
  type: "facebookSocial.insights",
  label: "Page insights",
  connector: "facebookSocial",
  params: [
    { key: "property", label: "Page", kind: "select", required: true, remote: "properties" },
    dimensionParam(DIMENSIONS),
    // A remote list (this connector's own): a widget saved with a metric Meta has since removed still
    // reaches Meta, whose refusal names it.
    { key: "metrics", label: "Metrics", kind: "multiselect", required: true, remote: "metrics" },
  ],
});

const numberOf = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;

export const facebookSocialConnector: Connector = {
  key: "facebookSocial",
  logo,
  settings: metaSettings,
  // Meta's business SDK objects for the pinned Graph version (docs/connectors.md).
  description: graphPagesLoader("pages"),
  displayName: "Facebook Social",
  order: 6,
  authKind: "oauth2",
  available: true,
  note: null,
  oauth: metaOAuthAdapter,
  settlingDays: FACEBOOK_SOCIAL_SETTLING_DAYS,
  lagDays: FACEBOOK_SOCIAL_LAG_DAYS,
  widgetTypes: [WIDGET_TYPE],
  missingConfig: (providers: ProvidersConfig) => missingMeta(providers),

  async options(kind, { source }) {
    if (kind === "metrics") return toOptions(METRICS);
    if (kind === "dimensions") return toOptions(DIMENSIONS);
    if (kind !== "properties") throw AppError.notFound("Unknown option list.");
    return (await managedPages(source))
      .map((page) => ({ value: page.id, label: page.name || page.id }))
      .sort((a, b) => a.label.localeCompare(b.label));
  },

  async query({ source, inputs, range }): Promise<TTable> {
    const pageId = typeof inputs.property === "string" ? inputs.property : "";
    if (!pageId) throw AppError.validation({ property: ["The property field is required."] });
    // Names Meta no longer knows are sent as they are: Meta's refusal tells the user which (422).
    const metrics = Array.isArray(inputs.metrics) ? inputs.metrics.map(String).filter(Boolean) : [];
    if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
    const dimension = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
    if (dimension && dimension !== "date") {
      throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
    }
    const page = (await managedPages(source)).find((entry) => entry.id === pageId);
    if (!page?.access_token) {
      throw AppError.validation({ property: ["This Facebook login does not manage that Page (any more)."] });
    }
    const auth = graphAuth(source.runtime.providers.meta, page.access_token);
    const answers = await Promise.all(
      windows(range.startDate, range.endDate, MAX_DAYS).map((window) =>
        metaGraph(source.runtime).request({
          path: `${graphVersion(source)}/${encodeURIComponent(pageId)}/insights`,
          query: { metric: metrics.join(","), period: "day", since: window.since, until: window.until, ...auth.query },
          headers: auth.headers,
          schema: ZInsights,
          limitKey: `page:${pageId}`,
        }),
      ),
    );
    // metric → day → value, every window joined.
    const byDay = new Map<string, Map<string, number | null>>(metrics.map((metric) => [metric, new Map()]));
    for (const answer of answers) {
      for (const series of answer.data) {
        if (series.period !== "day") continue;
        const target = byDay.get(series.name);
        for (const point of series.values) {
          const day = point.end_time ? dayOfEndTime(point.end_time) : null;
          if (day && day >= range.startDate && day <= range.endDate) target?.set(day, numberOf(point.value));
        }
      }
    }
    const days = daysOf(range.startDate, range.endDate);
    const declared = (key: string) => METRICS.find((metric) => metric.key === key);
    const total = (key: string): number | null => {
      const values = days.map((day) => byDay.get(key)?.get(day) ?? null).filter((value) => value !== null);
      const how = declared(key)?.total ?? "sum";
      if (values.length === 0 || how === "none") return null;
      if (how === "last") return values[values.length - 1] ?? null;
      return values.reduce((sum, value) => sum + value, 0);
    };
    return {
      dimension: dimension ? { key: "date", label: "Date", kind: "date" } : null,
      metrics: metrics.map((key) => {
        const metric = declared(key);
        return metricHeader({
          key,
          label: metric?.label ?? key,
          format: "number",
          lowerIsBetter: metric?.lowerIsBetter,
        });
      }),
      rows: dimension
        ? days.map((day) => ({ dimension: day, values: metrics.map((key) => byDay.get(key)?.get(day) ?? null) }))
        : [],
      totals: metrics.map(total),
    };
  },
};
