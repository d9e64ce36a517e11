import type { TOption, TTable } from "@app/core";
import { z } from "zod";
import type { ProvidersConfig } from "../../infra/config";
import { AppError } from "../../infra/errors";
import { text } from "../kit/inputs";
import { dayOfEndTime, daysOf, managedPages, windows } from "../meta/pages";
import { graphPagesLoader } from "../meta/pages-description";
import { metaSettings } from "../meta/settings";
import { graphVersion, metaGraph, metaOAuthAdapter, metaUserAuth, missingMeta } from "../meta/shared";
import { dimensionParam, toOptions, widgetTypeConfig } from "../options";
import type { Connector, QueryInputs, SourceHandle } from "../types";
import { logo } from "./logo";

/**
 * Instagram (docs/connectors.md), through Facebook Login: the professional accounts linked to the
 * login's Pages (`/me/accounts?fields=instagram_business_account{id,username}`), account insights
 * `GET /{ig-user-id}/insights?metric=…&period=day&metric_type=total_value&since=&until=` (at most 30
 * days per call: longer ranges are asked in windows), and a post's lifetime insights from
 * `GET /{media-id}/insights` (posts listed by `GET /{ig-user-id}/media`). `impressions` is gone since
 * 2025-04-21 (`views` replaces it); a widget still naming it gets Meta's refusal (422).
 *
 * The date dimension: Meta gives a daily series (`values[{value,end_time}]`, no `metric_type`) only for
 * `reach`; every other account metric exists only as one `total_value` over the range. So a widget by
 * date may show reach alone; the totals always come from `total_value`. Required inputs (docs/product.md
 * §5): property (the account), target, post unless the target is the profile, metrics.
 */

const ZInsights = z.object({
  data: z
    .array(
      z.object({
        name: z.string(),
        period: z.string().default("day"),
        values: z.array(z.object({ value: z.number().optional(), end_time: z.string().optional() })).default([]),
        total_value: z.object({ value: z.number() }).optional(),
      }),
    )
    .default([]),
});
const ZMedia = z.object({
  data: z
    .array(
      z.object({
        id: z.string(),
        caption: z.string().default(""),
        media_type: z.string().default(""),
        timestamp: z.string().default(""),
        permalink: z.string().optional(),
      }),
    )
    .default([]),
  paging: z
    .object({ cursors: z.object({ after: z.string().optional() }).partial().optional(), next: z.string().optional() })
    .optional(),
});

/** Instagram's numbers arrive up to 48 hours late (Meta's Insights API reference): three days before a day is final. */
export const INSTAGRAM_SETTLING_DAYS = 3;
/** Numbers arrive up to 48 hours late: the last two days are not judged yet. (insights and widget alerts, `lagDays`) */
export const INSTAGRAM_LAG_DAYS = 2;
/** Meta's longest since/until span for account insights. */
const MAX_DAYS = 30;

interface Metric {
  key: string;
  label: string;
  /** Counted once per account over a range: windows' figures cannot be added. */
  unique?: boolean;
  /** Meta gives it as a daily series too. */
  daily?: boolean;
}
const PROFILE_METRICS: Metric[] = [
  { key: "reach", label: "Accounts reached", unique: true, daily: true },
  { key: "views", label: "Views" },
  { key: "accounts_engaged", label: "Accounts engaged", unique: true },
  { key: "total_interactions", label: "Interactions" },
  { key: "likes", label: "Likes" },
  { key: "comments", label: "Comments" },
  { key: "shares", label: "Shares" },
  { key: "saves", label: "Saves" },
  { key: "replies", label: "Replies" },
  { key: "profile_links_taps", label: "Profile link taps" },
];
const POST_METRICS: Metric[] = [
  { key: "reach", label: "Accounts reached" },
  { key: "views", label: "Views" },
  { key: "likes", label: "Likes" },
  { key: "comments", label: "Comments" },
  { key: "saved", label: "Saves" },
  { key: "shares", label: "Shares" },
  { key: "total_interactions", label: "Interactions" },
];

const WIDGET_TYPE = widgetTypeConfig({
  type: "instagram.insights",
  label: "Instagram insights",
  connector: "instagram",
  params: [
    { key: "property", label: "Account", kind: "select", required: true, remote: "properties" },
    {
      key: "target",
      label: "Report on",
      kind: "select",
      required: true,
      options: [
        { value: "profile", label: "Profile" },
        { value: "post", label: "Post" },
      ],
    },
    { key: "post", label: "Post", kind: "select", required: true, remote: "posts", unless: "target::profile" },
    dimensionParam([{ key: "date", label: "Date (reach only)" }]),
    { key: "metrics", label: "Metrics", kind: "multiselect", required: true, remote: "metrics" },
  ],
});

const listOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String).filter(Boolean) : []);

/** A post in the picker: its date and the start of its caption (or its kind when it has none). */
function postLabel(media: z.infer<typeof ZMedia>["data"][number]): string {
  const caption = media.caption.replace(/\s+/g, " ").trim();
  const kind = media.media_type.toLowerCase().replace(/_/g, " ");
  const title = caption ? (caption.length > 60 ? `${caption.slice(0, 59)}…` : caption) : kind || media.id;
  return media.timestamp ? `${media.timestamp.slice(0, 10)} · ${title}` : title;
}

async function posts(source: SourceHandle, account: string): Promise<TOption[]> {
  const auth = metaUserAuth(source);
  const out: TOption[] = [];
  let after: string | undefined;
  // The newest 100 posts: older ones are rarely reported on, and the picker must stay short.
  for (let answer = 0; answer < 2; answer++) {
    const page = await metaGraph(source.runtime).request({
      path: `${graphVersion(source)}/${encodeURIComponent(account)}/media`,
      query: { fields: "id,caption,media_type,timestamp,permalink", limit: 50, after, ...auth.query },
      headers: auth.headers,
      schema: ZMedia,
      limitKey: `ig:${account}`,
    });
    out.push(...page.data.map((media) => ({ value: media.id, label: postLabel(media) })));
    after = page.paging?.cursors?.after;
    if (!page.paging?.next || !after) break;
  }
  return out;
}

const labelOf = (list: Metric[], key: string) => list.find((metric) => metric.key === key)?.label ?? key;

export const instagramConnector: Connector = {
  key: "instagram",
  logo,
  settings: metaSettings,
  // Meta's business SDK objects for the pinned Graph version (docs/connectors.md).
  description: graphPagesLoader("igUsers"),
  displayName: "Instagram",
  order: 7,
  authKind: "oauth2",
  available: true,
  note: null,
  oauth: metaOAuthAdapter,
  settlingDays: INSTAGRAM_SETTLING_DAYS,
  lagDays: INSTAGRAM_LAG_DAYS,
  widgetTypes: [WIDGET_TYPE],
  missingConfig: (providers: ProvidersConfig) => missingMeta(providers),
  // A post's insights are its lifetime numbers: a comparison period would only repeat them.
  followsRange: (inputs: QueryInputs) => inputs.target !== "post",

  async options(kind, { source, form }) {
    if (kind === "metrics") return toOptions(form.target === "post" ? POST_METRICS : PROFILE_METRICS);
    if (kind === "properties") {
      return (await managedPages(source))
        .flatMap((page) =>
          page.instagram_business_account
            ? [
                {
                  value: page.instagram_business_account.id,
                  label: `@${page.instagram_business_account.username || page.instagram_business_account.id} (${page.name})`,
                },
              ]
            : [],
        )
        .sort((a, b) => a.label.localeCompare(b.label));
    }
    if (kind === "posts") {
      const account = text(form.property);
      if (!account) throw AppError.validation({ property: ["Choose an account first."] });
      return posts(source, account);
    }
    throw AppError.notFound("Unknown option list.");
  },

  async query({ source, inputs, range }): Promise<TTable> {
    const account = text(inputs.property);
    if (!account) throw AppError.validation({ property: ["The property field is required."] });
    const target = text(inputs.target);
    if (target !== "profile" && target !== "post") {
      throw AppError.validation({ target: ["The target field is required."] });
    }
    const metrics = listOf(inputs.metrics);
    if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
    const dimension = text(inputs.dimension) || null;
    if (dimension && dimension !== "date") {
      throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
    }
    const auth = metaUserAuth(source);
    const graph = metaGraph(source.runtime);
    const version = graphVersion(source);

    if (target === "post") {
      const post = text(inputs.post);
      if (!post) throw AppError.validation({ post: ["The post field is required."] });
      if (dimension) {
        throw AppError.validation({ dimension: ["A post's insights are lifetime totals; they have no dates."] });
      }
      const answer = await graph.request({
        path: `${version}/${encodeURIComponent(post)}/insights`,
        query: { metric: metrics.join(","), ...auth.query },
        headers: auth.headers,
        schema: ZInsights,
        limitKey: `ig:${account}`,
      });
      return {
        dimension: null,
        metrics: metrics.map((key) => ({ key, label: labelOf(POST_METRICS, key), format: "number" as const })),
        rows: [],
        totals: metrics.map((key) => answer.data.find((entry) => entry.name === key)?.values[0]?.value ?? null),
      };
    }

    if (dimension) {
      const notDaily = metrics.filter((key) => !PROFILE_METRICS.find((metric) => metric.key === key)?.daily);
      if (notDaily.length > 0) {
        throw AppError.validation({
          dimension: [
            `Instagram gives ${notDaily.join(", ")} only as a total over the range; by date it gives reach alone.`,
          ],
        });
      }
    }
    const ask = (window: { since: string; until: string }, daily: boolean) =>
      graph.request({
        path: `${version}/${encodeURIComponent(account)}/insights`,
        query: {
          metric: metrics.join(","),
          period: "day",
          ...(daily ? {} : { metric_type: "total_value" }),
          since: window.since,
          until: window.until,
          ...auth.query,
        },
        headers: auth.headers,
        schema: ZInsights,
        limitKey: `ig:${account}`,
      });
    const parts = windows(range.startDate, range.endDate, MAX_DAYS);
    const [totals, series] = await Promise.all([
      Promise.all(parts.map((window) => ask(window, false))),
      dimension ? Promise.all(parts.map((window) => ask(window, true))) : Promise.resolve([]),
    ]);
    const totalOf = (key: string): number | null => {
      const values = totals.map((answer) => answer.data.find((entry) => entry.name === key)?.total_value?.value);
      if (values.some((value) => value === undefined)) return null;
      // Accounts reached in two windows may be the same accounts: no total rather than a wrong one.
      if (values.length > 1 && PROFILE_METRICS.find((metric) => metric.key === key)?.unique) return null;
      return (values as number[]).reduce((sum, value) => sum + value, 0);
    };
    const byDay = new Map<string, Map<string, number>>(metrics.map((key) => [key, new Map()]));
    for (const answer of series) {
      for (const entry of answer.data) {
        for (const point of entry.values) {
          const day = point.end_time ? dayOfEndTime(point.end_time) : null;
          if (day && point.value !== undefined) byDay.get(entry.name)?.set(day, point.value);
        }
      }
    }
    return {
      dimension: dimension ? { key: "date", label: "Date", kind: "date" } : null,
      metrics: metrics.map((key) => ({ key, label: labelOf(PROFILE_METRICS, key), format: "number" as const })),
      rows: dimension
        ? daysOf(range.startDate, range.endDate).map((day) => ({
            dimension: day,
            values: metrics.map((key) => byDay.get(key)?.get(day) ?? null),
          }))
        : [],
      totals: metrics.map(totalOf),
    };
  },
};
