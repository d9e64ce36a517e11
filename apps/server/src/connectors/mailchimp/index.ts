import { createHash } from "node:crypto";
import { shiftDay, type TOption, type TTable, todayInTimezone } from "@app/core";
import { z } from "zod";
import type { ProvidersConfig } from "../../infra/config";
import { AppError } from "../../infra/errors";
import type { Classifier } from "../http/classify";
import { createProviderClient, type ProviderClient } from "../http/client";
import { ProviderError, parseRetryAfter } from "../http/errors";
import { perRuntime } from "../http/per-runtime";
import { daysOf, startOfDayIn } from "../kit/inputs";
import { metricHeader } from "../kit/metrics";
import { followOffset } from "../kit/paging";
import { dimensionParam, metricsParam, widgetTypeConfig } from "../options";
import type { Connector, SourceHandle } from "../types";
import { mailchimpDescription } from "./description";
import { logo } from "./logo";
import {
  ACTIVITY_METRICS,
  addActivity,
  addCampaignParts,
  addReport,
  CAMPAIGN_METRICS,
  type CampaignParts,
  emptyActivityParts,
  emptyCampaignParts,
  REPORT_FIELDS,
  ZActivity,
  ZReport,
} from "./metrics";
import { mailchimpApiUrl, mailchimpOAuthAdapter, missingMailchimpConfig } from "./oauth";
import { mailchimpSettings } from "./settings";

/**
 * Mailchimp through the Marketing API 3.0 (docs/connectors.md, "Mailchimp"): audiences from
 * `/3.0/lists`, campaigns from `/3.0/campaigns`, campaign reports from `/3.0/reports` (filtered by send
 * time), an audience's daily activity from `/3.0/lists/{id}/activity`. The host is the account's data
 * centre (`https://{dc}.api.mailchimp.com`), stored with the token at sign-in (oauth/mailchimp.ts).
 */

/** Opens and clicks of a campaign keep arriving for weeks after it was sent. */
export const MAILCHIMP_SETTLING_DAYS = 30;

const CAMPAIGN_DIMENSIONS = [
  { key: "campaign", label: "Campaign" },
  { key: "send_date", label: "Send date" },
] as const;
const ACTIVITY_DIMENSIONS = [{ key: "date", label: "Date" }] as const;

const CAMPAIGNS_TYPE = widgetTypeConfig({
  type: "mailchimp.campaigns",
  label: "Mailchimp campaign reports",
  connector: "mailchimp",
  params: [
    { key: "audience", label: "Audience", kind: "select", required: false, remote: "audiences" },
    { key: "campaign", label: "Campaign", kind: "select", required: false, remote: "campaigns" },
    dimensionParam(CAMPAIGN_DIMENSIONS),
    metricsParam(CAMPAIGN_METRICS),
  ],
});
const ACTIVITY_TYPE = widgetTypeConfig({
  type: "mailchimp.audience",
  label: "Mailchimp audience activity",
  connector: "mailchimp",
  params: [
    { key: "audience", label: "Audience", kind: "select", required: true, remote: "audiences" },
    dimensionParam(ACTIVITY_DIMENSIONS),
    metricsParam(ACTIVITY_METRICS),
  ],
});

/** Items per page: Mailchimp's maximum `count`. Pages followed at most (50,000 items). */
const PAGE_COUNT = 1000;
const MAX_PAGES = 50;
/** Mailchimp keeps an audience's daily activity for the last 180 days. */
const ACTIVITY_DAYS = 180;

const ZLists = z.object({
  lists: z.array(z.object({ id: z.string(), name: z.string().default("") })).default([]),
  total_items: z.number().default(0),
});
const ZCampaigns = z.object({
  campaigns: z
    .array(
      z.object({
        id: z.string(),
        status: z.string().optional(),
        send_time: z.string().optional(),
        settings: z.object({ title: z.string().optional(), subject_line: z.string().optional() }).partial().optional(),
      }),
    )
    .default([]),
  total_items: z.number().default(0),
});
const ZReports = z.object({ reports: z.array(ZReport).default([]), total_items: z.number().default(0) });
const ZActivities = z.object({ activity: z.array(ZActivity).default([]), total_items: z.number().default(0) });

/**
 * Mailchimp's failures are problem details `{type, title, status, detail, instance}`
 * (https://mailchimp.com/developer/marketing/docs/errors/): 401 (APIKeyMissing/Invalid) is the grant;
 * 403 "User Disabled" or "Wrong Datacenter" too; 429, and a 403 titled "Too Many Requests" or without a
 * problem body (what the 10-connection limit sometimes answers), are throttling; another 403 or a 404 is
 * a resource this account cannot read (the widget's 422, in Mailchimp's words); 5xx the service.
 */
export const classifyMailchimp: Classifier = (provider, answer) => {
  if (answer.status >= 200 && answer.status < 300) return null;
  const body = answer.body && typeof answer.body === "object" ? (answer.body as Record<string, unknown>) : null;
  const title = typeof body?.title === "string" ? body.title : "";
  const detail = typeof body?.detail === "string" ? body.detail : "";
  const words = [title, detail].filter(Boolean).join(": ") || `HTTP ${answer.status}`;
  const options = {
    httpStatus: answer.status,
    retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), answer.now),
  };
  if (answer.status === 401) return new ProviderError(provider, "auth", words, options);
  if (answer.status === 429 || (answer.status === 403 && (!title || /too many requests/i.test(title)))) {
    return new ProviderError(provider, "rate", words, options);
  }
  if (answer.status === 403 && /user disabled|wrong datacenter/i.test(title)) {
    return new ProviderError(provider, "auth", words, options);
  }
  if (answer.status >= 500) return new ProviderError(provider, "server", words, options);
  return new ProviderError(provider, "input", detail || words, options);
};

/** One API client per data centre and process: concurrency limits act across requests. */
const clients = perRuntime(() => new Map<string, ProviderClient>());

interface Api {
  api: ProviderClient;
  headers: Record<string, string>;
  /** The account's concurrency key: Mailchimp allows 10 simultaneous connections per account. */
  limitKey: string;
}

function apiOf(source: SourceHandle): Api {
  const token = source.credentials.access_token;
  const dc = source.credentials.dc ?? "";
  if (!token) throw new ProviderError("mailchimp", "auth", "no Mailchimp token stored; reconnect the source");
  const config = source.runtime.providers.mailchimp;
  const perDc = clients(source.runtime);
  let api = perDc.get(dc);
  if (!api) {
    api = createProviderClient({
      provider: "mailchimp",
      baseUrl: mailchimpApiUrl(config, dc),
      classify: classifyMailchimp,
      counters: source.runtime.counters,
      concurrency: 10,
    });
    perDc.set(dc, api);
  }
  const digest = createHash("sha256").update(`${dc}:${token}`).digest("hex").slice(0, 16);
  return { api, headers: { authorization: `Bearer ${token}` }, limitKey: `account:${digest}` };
}

const listId = (value: unknown, field = "audience"): string | null => {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value !== "string" || !/^[A-Za-z0-9]{1,32}$/.test(value)) {
    throw AppError.validation({ [field]: [`The selected ${field} is invalid.`] });
  }
  return value;
};

function requireMetrics<M extends { key: string }>(value: unknown, offered: readonly M[]): M[] {
  const keys = Array.isArray(value) ? value.map(String).filter(Boolean) : [];
  if (keys.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
  const unknown = keys.filter((key) => !offered.some((metric) => metric.key === key));
  if (unknown.length > 0) throw AppError.validation({ metrics: [`Mailchimp has no metric ${unknown.join(", ")}.`] });
  return keys.map((key) => offered.find((metric) => metric.key === key) as M);
}

export const mailchimpConnector: Connector = {
  key: "mailchimp",
  logo,
  settings: mailchimpSettings,
  // Mailchimp's official Node.js SDK's endpoint index (docs/connectors.md): its OpenAPI copy is not obtainable.
  description: mailchimpDescription,
  displayName: "Mailchimp",
  order: 21,
  authKind: "oauth2",
  available: true,
  note: null,
  oauth: mailchimpOAuthAdapter,
  settlingDays: MAILCHIMP_SETTLING_DAYS,
  widgetTypes: [CAMPAIGNS_TYPE, ACTIVITY_TYPE],
  missingConfig: (providers: ProvidersConfig) => missingMailchimpConfig(providers.mailchimp),

  async options(kind, { source, form }): Promise<TOption[]> {
    const { api, headers, limitKey } = apiOf(source);
    if (kind === "audiences") {
      const lists = await followOffset(MAX_PAGES, async (offset) => {
        const answer = await api.request({
          path: "/3.0/lists",
          query: { count: PAGE_COUNT, offset, fields: "lists.id,lists.name,total_items" },
          headers,
          schema: ZLists,
          limitKey,
        });
        return { items: answer.lists, total: answer.total_items };
      });
      return lists
        .map((list) => ({ value: list.id, label: list.name || list.id }))
        .sort((a, b) => a.label.localeCompare(b.label));
    }
    if (kind === "campaigns") {
      const audience = listId(form.audience);
      const campaigns = await followOffset(MAX_PAGES, async (offset) => {
        const answer = await api.request({
          path: "/3.0/campaigns",
          query: {
            count: PAGE_COUNT,
            offset,
            status: "sent",
            sort_field: "send_time",
            sort_dir: "DESC",
            fields:
              "campaigns.id,campaigns.status,campaigns.send_time,campaigns.settings.title,campaigns.settings.subject_line,total_items",
            ...(audience && { list_id: audience }),
          },
          headers,
          schema: ZCampaigns,
          limitKey,
        });
        return { items: answer.campaigns, total: answer.total_items };
      });
      return campaigns.map((campaign) => {
        const name = campaign.settings?.title || campaign.settings?.subject_line || campaign.id;
        return {
          value: campaign.id,
          label: campaign.send_time ? `${name} (${campaign.send_time.slice(0, 10)})` : name,
        };
      });
    }
    throw AppError.notFound("Unknown option list.");
  },

  async query({ source, type, inputs, range, timezone }): Promise<TTable> {
    const dimensionKey = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
    if (type === ACTIVITY_TYPE.type) {
      const audience = listId(inputs.audience);
      if (!audience) throw AppError.validation({ audience: ["The audience field is required."] });
      const metrics = requireMetrics(inputs.metrics, ACTIVITY_METRICS);
      if (dimensionKey && dimensionKey !== "date") {
        throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
      }
      const { api, headers, limitKey } = apiOf(source);
      // Mailchimp answers the last 180 days, newest first, in one page; days outside the range are left out.
      const answer = await api.request({
        path: `/3.0/lists/${encodeURIComponent(audience)}/activity`,
        query: { count: ACTIVITY_DAYS },
        headers,
        schema: ZActivities,
        limitKey,
      });
      const byDay = new Map(daysOf(range.startDate, range.endDate).map((day) => [day, emptyActivityParts()]));
      for (const { day, ...parts } of answer.activity) {
        const entry = byDay.get(day.slice(0, 10));
        if (entry) addActivity(entry, parts);
      }
      const totals = emptyActivityParts();
      for (const parts of byDay.values()) addActivity(totals, parts);
      return {
        dimension: dimensionKey ? { key: "date", label: "Date", kind: "date" } : null,
        metrics: metrics.map((metric) => metricHeader(metric)),
        rows: dimensionKey
          ? [...byDay.entries()].map(([day, parts]) => ({
              dimension: day,
              values: metrics.map((metric) => metric.value(parts)),
            }))
          : [],
        totals: metrics.map((metric) => metric.value(totals)),
      };
    }

    if (type !== CAMPAIGNS_TYPE.type) throw AppError.notFound("Unknown widget type.");
    const metrics = requireMetrics(inputs.metrics, CAMPAIGN_METRICS);
    const dimension = CAMPAIGN_DIMENSIONS.find((entry) => entry.key === dimensionKey) ?? null;
    if (dimensionKey && !dimension) throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
    const audience = listId(inputs.audience);
    const campaign = listId(inputs.campaign, "campaign");
    const { api, headers, limitKey } = apiOf(source);
    // Campaigns sent within the range's days in the dashboard's zone.
    const since = startOfDayIn(range.startDate, timezone);
    const before = startOfDayIn(shiftDay(range.endDate, 1), timezone);
    const reports = (
      await followOffset(MAX_PAGES, async (offset) => {
        const answer = await api.request({
          path: "/3.0/reports",
          query: {
            count: PAGE_COUNT,
            offset,
            since_send_time: since,
            before_send_time: before,
            fields: REPORT_FIELDS,
          },
          headers,
          schema: ZReports,
          limitKey,
        });
        return { items: answer.reports, total: answer.total_items };
      })
    ).filter((report) => (!audience || report.list_id === audience) && (!campaign || report.id === campaign));

    const grouped = new Map<string, { label: string; parts: CampaignParts; sentAt: string }>();
    if (dimension?.key === "send_date") {
      for (const day of daysOf(range.startDate, range.endDate)) {
        grouped.set(day, { label: day, parts: emptyCampaignParts(), sentAt: day });
      }
    }
    const totals = emptyCampaignParts();
    for (const report of reports) {
      addReport(totals, report);
      if (!dimension) continue;
      const key = dimension.key === "send_date" ? todayInTimezone(timezone, new Date(report.send_time)) : report.id;
      const entry = grouped.get(key) ?? {
        label: report.campaign_title || report.id,
        parts: emptyCampaignParts(),
        sentAt: report.send_time,
      };
      addCampaignParts(entry.parts, addReport(emptyCampaignParts(), report));
      grouped.set(key, entry);
    }
    const rows = [...grouped.values()].sort((a, b) => a.sentAt.localeCompare(b.sentAt));
    return {
      dimension: dimension
        ? { key: dimension.key, label: dimension.label, kind: dimension.key === "send_date" ? "date" : "string" }
        : null,
      metrics: metrics.map((metric) => metricHeader(metric)),
      rows: rows.map((entry) => ({
        dimension: entry.label,
        values: metrics.map((metric) => metric.value(entry.parts)),
      })),
      totals: metrics.map((metric) => metric.value(totals)),
    };
  },
};
