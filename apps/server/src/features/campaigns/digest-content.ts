import { formatDisplayDate } from "@app/core";
import type { DigestWidgetAlertRow } from "./alert-jobs";
import type { OpenAlertRow } from "./alerts-repo";
import type { DigestDashboard, DigestGroup } from "./digest-mail";

/** What the digest lists (alert-jobs.ts mails it; digest-mail.ts words it). */

/** The open group alerts by group and domain, each marked new when opened since the last digest. */
export function digestGroups(
  appUrl: string,
  rows: readonly OpenAlertRow[],
  lastDigestAt: string | null,
): DigestGroup[] {
  const groups = new Map<string, DigestGroup>();
  for (const row of rows) {
    let group = groups.get(row.campaign_id);
    if (!group) {
      group = { name: row.campaign_name, url: `${appUrl}/groups/${row.campaign_id}`, domains: [] };
      groups.set(row.campaign_id, group);
    }
    let domain = group.domains.find((entry) => entry.domain === row.domain);
    if (!domain) {
      domain = { domain: row.domain, alerts: [] };
      group.domains.push(domain);
    }
    domain.alerts.push({
      reason: row.reason,
      openedDay: formatDisplayDate(row.opened_at.slice(0, 10)),
      isNew: lastDigestAt === null || row.opened_at > lastDigestAt,
    });
  }
  return [...groups.values()];
}

/** The open widget alerts by dashboard, each marked new when opened since the last digest. */
export function digestDashboards(
  appUrl: string,
  rows: readonly DigestWidgetAlertRow[],
  lastDigestAt: string | null,
): DigestDashboard[] {
  const dashboards = new Map<string, DigestDashboard>();
  for (const row of rows) {
    let dashboard = dashboards.get(row.dashboardId);
    if (!dashboard) {
      dashboard = {
        name: row.dashboardName,
        url: `${appUrl}/dashboards/${encodeURIComponent(row.dashboardPermalink)}`,
        alerts: [],
      };
      dashboards.set(row.dashboardId, dashboard);
    }
    dashboard.alerts.push({
      widgetTitle: row.widgetTitle,
      metricLabel: row.metricLabel,
      message: row.message,
      openedDay: formatDisplayDate(row.openedAt.slice(0, 10)),
      isNew: lastDigestAt === null || row.openedAt > lastDigestAt,
    });
  }
  return [...dashboards.values()];
}
