import type { DayRange, TOption, TTable } from "@app/core";
import { daysBetween, shiftDay } from "@app/core";
import { z } from "zod";
import { AppError } from "../../infra/errors";
import { linkedinSettings } from "../linkedin/settings";
import {
  dailyIntervals,
  dayOfMs,
  encoded,
  linkedinApi,
  linkedinHeaders,
  linkedinSocialOAuthAdapter,
  missingLinkedInSocial,
  restliQuery,
  urnId,
} from "../linkedin/shared";
import { dimensionParam, metricsParam, toOptions, widgetTypeConfig } from "../options";
import type { Connector, SourceHandle } from "../types";
import { logo } from "./logo";
import { type Parts, STATISTICS, statisticByType } from "./statistics";

/**
 * LinkedIn Social (docs/connectors.md): the organizations (Company Pages) the member administers, from
 * `GET /rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED` with names from
 * `/rest/organizations/{id}`; numbers from the time-bound organization statistics (posts, follower
 * gains, page views) by day. Required inputs: property (the organization), metrics.
 *
 * **Twelve months only.** LinkedIn serves these statistics for a rolling 12 months and refuses an earlier
 * start. The connector clamps the request to the window (from the day after the same date a year ago,
 * UTC) instead of refusing the widget: the comparison period of a range near the edge would otherwise
 * cost the widget its current numbers too. Days outside show no value (null, not 0), a range wholly
 * outside is not asked at all, and the table carries a notice saying from which day LinkedIn has numbers.
 */

/** Post and page statistics keep moving for a day or two after the day ends. */
export const LINKEDIN_SOCIAL_SETTLING_DAYS = 2;
/** Yesterday's statistics are still moving: not judged until the day after. (insights and widget alerts, `lagDays`) */
export const LINKEDIN_SOCIAL_LAG_DAYS = 1;

const DIMENSIONS = [{ key: "date", label: "Date" }];

const WIDGET_TYPES = STATISTICS.map((statistic) =>
  widgetTypeConfig({
    type: statistic.type,
    label: statistic.label,
    connector: "linkedinSocial",
    params: [
      { key: "property", label: "Organization", kind: "select", required: true, remote: "properties" },
      dimensionParam(DIMENSIONS),
      metricsParam(statistic.metrics),
    ],
  }),
);

const ZAcls = z.object({
  elements: z
    .array(z.object({ organization: z.string(), role: z.string().optional(), state: z.string().optional() }))
    .default([]),
  paging: z.object({ start: z.number(), count: z.number(), total: z.number().optional() }).partial().optional(),
});
const ZOrganization = z.object({
  id: z.number(),
  localizedName: z.string().optional(),
  vanityName: z.string().optional(),
});
const ZElements = z.object({ elements: z.array(z.unknown()).default([]) });

const ACL_PAGE = 100;
const MAX_ACL_PAGES = 10;

/** The first day LinkedIn still serves: the day after the same date a year ago (UTC), so never past its edge. */
export function earliestDay(now: number): string {
  const yearAgo = new Date(now);
  yearAgo.setUTCFullYear(yearAgo.getUTCFullYear() - 1);
  return shiftDay(dayOfMs(yearAgo.getTime()), 1);
}

/** The part of a range LinkedIn can answer (null when none), and whether days were cut at the start. */
export function statisticsWindow(range: DayRange, now: number): { window: DayRange | null; clamped: string | null } {
  const earliest = earliestDay(now);
  const today = dayOfMs(now);
  // Days as yyyy-mm-dd compare as text.
  const [, startDate = earliest] = [range.startDate, earliest].sort();
  const [endDate = today] = [range.endDate, today].sort();
  return {
    window: startDate <= endDate ? { startDate, endDate } : null,
    clamped: range.startDate < earliest ? earliest : null,
  };
}

const readable = (day: string) =>
  new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );

async function administeredOrganizations(source: SourceHandle): Promise<TOption[]> {
  const api = linkedinApi(source.runtime);
  const headers = await linkedinHeaders(source);
  const urns: string[] = [];
  let start = 0;
  for (let page = 0; page < MAX_ACL_PAGES; page++) {
    const answer = await api.request({
      path: `/rest/organizationAcls?${restliQuery({
        q: "roleAssignee",
        role: "ADMINISTRATOR",
        state: "APPROVED",
        start: String(start),
        count: String(ACL_PAGE),
      })}`,
      headers,
      schema: ZAcls,
      limitKey: `source:${source.id}`,
    });
    urns.push(...answer.elements.map((element) => element.organization));
    // LinkedIn may answer fewer than asked: the next page starts after what came; `total` says when to stop.
    start += answer.elements.length;
    const total = answer.paging?.total;
    if (answer.elements.length === 0 || (total !== undefined ? start >= total : answer.elements.length < ACL_PAGE)) {
      break;
    }
  }
  const ids = [...new Set(urns.filter((urn) => urn.startsWith("urn:li:organization:")).map(urnId))];
  const organizations = await Promise.all(
    ids.map(async (id) => {
      const organization = await api.request({
        path: `/rest/organizations/${id}`,
        headers,
        schema: ZOrganization,
        limitKey: `source:${source.id}`,
      });
      return { value: id, label: organization.localizedName || organization.vanityName || `Organization ${id}` };
    }),
  );
  return organizations.sort((a, b) => a.label.localeCompare(b.label));
}

export const linkedinSocialConnector: Connector = {
  key: "linkedinSocial",
  logo,
  settings: linkedinSettings,
  displayName: "LinkedIn Social",
  order: 18,
  authKind: "oauth2",
  available: true,
  note: null,
  oauth: linkedinSocialOAuthAdapter,
  settlingDays: LINKEDIN_SOCIAL_SETTLING_DAYS,
  lagDays: LINKEDIN_SOCIAL_LAG_DAYS,
  widgetTypes: WIDGET_TYPES,
  missingConfig: missingLinkedInSocial,

  async options(kind, { source }) {
    if (kind === "dimensions") return toOptions(DIMENSIONS);
    if (kind !== "properties") throw AppError.notFound("Unknown option list.");
    return administeredOrganizations(source);
  },

  async query({ source, type, inputs, range }): Promise<TTable> {
    const statistic = statisticByType.get(type);
    if (!statistic) throw AppError.validation({ type: ["Unknown widget type."] });
    const organization = typeof inputs.property === "string" ? urnId(inputs.property) : "";
    if (!/^\d+$/.test(organization)) throw AppError.validation({ property: ["The property field is required."] });
    const keys = Array.isArray(inputs.metrics) ? inputs.metrics.map(String).filter(Boolean) : [];
    if (keys.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
    const metrics = keys.map((key) => {
      const metric = statistic.metrics.find((entry) => entry.key === key);
      if (!metric) throw AppError.validation({ metrics: [`${statistic.label} has no metric ${key}.`] });
      return metric;
    });
    const dimension = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
    if (dimension && dimension !== "date")
      throw AppError.validation({ dimension: ["The selected dimension is invalid."] });

    const now = Date.now();
    const { window, clamped } = statisticsWindow(range, now);
    const byDay = new Map<string, Parts>();
    if (window) {
      const answer = await linkedinApi(source.runtime).request({
        path: `${statistic.path}?${restliQuery({
          q: statistic.finder,
          [statistic.entityParam]: encoded(`urn:li:organization:${organization}`),
          timeIntervals: dailyIntervals(window.startDate, window.endDate),
        })}`,
        headers: await linkedinHeaders(source),
        schema: ZElements,
        limitKey: `organization:${organization}`,
      });
      for (let index = 0; index <= daysBetween(window.startDate, window.endDate); index++) {
        byDay.set(shiftDay(window.startDate, index), {});
      }
      for (const element of answer.elements) {
        const { start, parts } = statistic.parts(element);
        const day = dayOfMs(start);
        const target = byDay.get(day);
        if (!target) continue;
        for (const [key, value] of Object.entries(parts)) target[key] = (target[key] ?? 0) + value;
      }
    }
    const totals: Parts = {};
    for (const parts of byDay.values()) {
      for (const [key, value] of Object.entries(parts)) totals[key] = (totals[key] ?? 0) + value;
    }
    const days = Array.from({ length: daysBetween(range.startDate, range.endDate) + 1 }, (_, index) =>
      shiftDay(range.startDate, index),
    );
    return {
      dimension: dimension ? { key: "date", label: "Date", kind: "date" } : null,
      metrics: metrics.map((metric) => ({ key: metric.key, label: metric.label, format: metric.format })),
      rows: dimension
        ? days.map((day) => {
            const parts = byDay.get(day);
            return { dimension: day, values: metrics.map((metric) => (parts ? metric.value(parts) : null)) };
          })
        : [],
      totals: metrics.map((metric) => (byDay.size > 0 && metric.summable ? metric.value(totals) : null)),
      ...(clamped && {
        notice: {
          asOf: new Date(now).toISOString(),
          message: `LinkedIn keeps organization statistics for 12 months: days before ${readable(clamped)} have no numbers`,
        },
      }),
    };
  },
};
