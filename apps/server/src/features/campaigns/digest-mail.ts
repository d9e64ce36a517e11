import { escapeHtml, MAIL_FONT, mailDocument } from "../../infra/mail-html";

/**
 * The Mission Control alert digest (docs/decisions.md, "Mission Control alerts"): which client domains need attention, grouped by
 * group, and which widget alerts are firing, grouped by dashboard; new alerts marked, in the product's
 * mail frame (infra/mail-html.ts), with a plain-text part holding the same facts.
 */

export interface DigestAlert {
  reason: string;
  /** The day the alert opened, as the product shows days ("Nov 26, 2026"). */
  openedDay: string;
  /** Opened since the last digest. */
  isNew: boolean;
}

export interface DigestDomain {
  domain: string;
  alerts: DigestAlert[];
}

export interface DigestGroup {
  name: string;
  /** The group page, where the domain can be looked at and snoozed. */
  url: string;
  domains: DigestDomain[];
}

/** An open alert on a widget's metric. */
export interface DigestWidgetAlertLine {
  widgetTitle: string;
  metricLabel: string;
  /** The evaluation's sentence ("Sessions rose to 1,204, above 1,000"). */
  message: string;
  openedDay: string;
  isNew: boolean;
}

export interface DigestDashboard {
  name: string;
  /** The dashboard, where the alert's badge opens its alerts. */
  url: string;
  alerts: DigestWidgetAlertLine[];
}

export interface DigestMailInput {
  companyName: string;
  /** "daily" or "weekly": named in the subject so a weekly one is not taken for a missed day. */
  frequency: "daily" | "weekly";
  groups: DigestGroup[];
  /** Dashboards with open widget alerts (none: the digest reads as Mission Control's alone). */
  dashboards?: DigestDashboard[];
  /** Where the admin changes the rules or turns the digest off. */
  settingsUrl: string;
}

function counts(groups: readonly DigestGroup[], dashboards: readonly DigestDashboard[] = []) {
  let total = 0;
  let fresh = 0;
  let domains = 0;
  for (const alert of [
    ...groups.flatMap((group) => group.domains.flatMap((domain) => domain.alerts)),
    ...dashboards.flatMap((dashboard) => dashboard.alerts),
  ]) {
    total += 1;
    if (alert.isNew) fresh += 1;
  }
  for (const group of groups) domains += group.domains.length;
  return { total, fresh, domains, dashboards: dashboards.length };
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "2 domains", "1 dashboard", "2 domains and 1 dashboard": where the open alerts are. */
function where(domains: number, dashboards: number): string {
  const parts = [
    ...(domains > 0 || dashboards === 0 ? [plural(domains, "domain", "domains")] : []),
    ...(dashboards > 0 ? [plural(dashboards, "dashboard", "dashboards")] : []),
  ];
  return parts.join(" and ");
}

export function digestSubject(input: Pick<DigestMailInput, "frequency" | "groups" | "dashboards">): string {
  const { total, fresh, domains, dashboards } = counts(input.groups, input.dashboards);
  const what =
    fresh > 0
      ? `${plural(fresh, "new alert", "new alerts")}, ${total} open`
      : plural(total, "open alert", "open alerts");
  return `Mission Control ${input.frequency} digest: ${what} on ${where(domains, dashboards)}`;
}

const NEW_MARK = `<span style="display: inline-block; background: #fee2e2; color: #991b1b; font-size: 11px; font-weight: bold; padding: 1px 6px; border-radius: 4px; margin-right: 6px;">NEW</span>`;

/** One section per dashboard: its name (a link), then each alert as widget · metric, sentence, since when. */
function dashboardRows(dashboards: readonly DigestDashboard[]): string {
  return dashboards
    .map((dashboard) => {
      const alerts = dashboard.alerts
        .map(
          (alert) =>
            `<tr><td style="${MAIL_FONT} font-size: 15px; font-weight: bold; color: #0f172a; padding: 10px 0 2px 0;">${escapeHtml(alert.widgetTitle)}<span style="font-weight: normal; color: #64748b;"> · ${escapeHtml(alert.metricLabel)}</span></td></tr>
<tr><td style="${MAIL_FONT} font-size: 14px; color: #0f172a; padding: 4px 0 4px 12px;">${alert.isNew ? NEW_MARK : ""}${escapeHtml(alert.message)}<span style="color: #64748b;"> · since ${escapeHtml(alert.openedDay)}</span></td></tr>`,
        )
        .join("");
      return `<tr><td style="padding: 16px 24px 8px 24px; border-top: 1px solid #e2e8f0;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
<tr><td style="${MAIL_FONT} font-size: 12px; color: #64748b; text-transform: uppercase; letter-spacing: 0.04em;">Dashboard</td></tr>
<tr><td style="${MAIL_FONT} font-size: 17px; font-weight: bold; padding-bottom: 4px;"><a href="${escapeHtml(dashboard.url)}" style="color: #1d4ed8; text-decoration: none;">${escapeHtml(dashboard.name)}</a></td></tr>
${alerts}
</table></td></tr>`;
    })
    .join("\n");
}

export function digestMail(input: DigestMailInput): { subject: string; html: string; text: string } {
  const subject = digestSubject(input);
  const dashboards = input.dashboards ?? [];
  const { total, fresh } = counts(input.groups, dashboards);
  const heading =
    dashboards.length === 0
      ? "Domains that need attention"
      : input.groups.length === 0
        ? "Dashboards that need attention"
        : "Domains and dashboards that need attention";
  const summary = `${plural(total, "alert is", "alerts are")} open${fresh > 0 ? `, ${fresh} of them new since the last digest` : ""}.`;
  const rows = input.groups
    .map((group) => {
      const domains = group.domains
        .map((domain) => {
          const alerts = domain.alerts
            .map(
              (alert) =>
                `<tr><td style="${MAIL_FONT} font-size: 14px; color: #0f172a; padding: 4px 0 4px 12px;">${
                  alert.isNew ? NEW_MARK : ""
                }${escapeHtml(alert.reason)}<span style="color: #64748b;"> · since ${escapeHtml(alert.openedDay)}</span></td></tr>`,
            )
            .join("");
          return `<tr><td style="${MAIL_FONT} font-size: 15px; font-weight: bold; color: #0f172a; padding: 10px 0 2px 0;">${escapeHtml(domain.domain)}</td></tr>${alerts}`;
        })
        .join("");
      return `<tr><td style="padding: 16px 24px 8px 24px; border-top: 1px solid #e2e8f0;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
<tr><td style="${MAIL_FONT} font-size: 17px; font-weight: bold; padding-bottom: 4px;"><a href="${escapeHtml(group.url)}" style="color: #1d4ed8; text-decoration: none;">${escapeHtml(group.name)}</a></td></tr>
${domains}
</table></td></tr>`;
    })
    .join("\n");
  const html = mailDocument(
    subject,
    `<tr><td style="${MAIL_FONT} font-size: 13px; color: #64748b; padding: 20px 24px 0 24px;">${escapeHtml(input.companyName)} · Mission Control</td></tr>
<tr><td style="${MAIL_FONT} font-size: 22px; line-height: 28px; font-weight: bold; color: #0f172a; padding: 6px 24px 4px 24px;">${escapeHtml(heading)}</td></tr>
<tr><td style="${MAIL_FONT} font-size: 15px; color: #334155; padding: 0 24px 12px 24px;">${escapeHtml(summary)}</td></tr>
${rows}
${dashboardRows(dashboards)}
<tr><td style="${MAIL_FONT} font-size: 12px; line-height: 18px; color: #94a3b8; padding: 16px 24px 20px 24px; border-top: 1px solid #f1f5f9;">Snooze a domain on its group page to stop its alerts for a week${dashboards.length > 0 ? "; snooze a widget alert from its bell on the dashboard" : ""}. <a href="${escapeHtml(input.settingsUrl)}" style="color: #4c49d8;">Change the alert rules or how often this digest comes</a>.</td></tr>`,
  );
  const text = [
    `${input.companyName} · Mission Control`,
    heading,
    summary,
    "",
    ...input.groups.flatMap((group) => [
      `${group.name} (${group.url})`,
      ...group.domains.flatMap((domain) => [
        `  ${domain.domain}`,
        ...domain.alerts.map((alert) => `    ${alert.isNew ? "[NEW] " : ""}${alert.reason} · since ${alert.openedDay}`),
      ]),
      "",
    ]),
    ...dashboards.flatMap((dashboard) => [
      `Dashboard: ${dashboard.name} (${dashboard.url})`,
      ...dashboard.alerts.flatMap((alert) => [
        `  ${alert.widgetTitle} · ${alert.metricLabel}`,
        `    ${alert.isNew ? "[NEW] " : ""}${alert.message} · since ${alert.openedDay}`,
      ]),
      "",
    ]),
    `Snooze a domain on its group page to stop its alerts for a week${dashboards.length > 0 ? "; snooze a widget alert from its bell on the dashboard" : ""}.`,
    `Change the alert rules or how often this digest comes: ${input.settingsUrl}`,
  ].join("\n");
  return { subject, html, text };
}
