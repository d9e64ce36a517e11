import { dueDigestPeriod, REALTIME_EVENTS, ROLE_ADMIN, type TCampaignAlertsUpdated } from "@app/core";
import { z } from "zod";
import type { AppContext } from "../../context";
import { broadcastToCompany } from "../../infra/broadcast";
import type { JobDefinition } from "../../infra/jobs";
import { newId } from "../../infra/security";
import type { SenderLookup } from "../automatic-reports/delivery";
import type { AnyJobDefinition } from "../registry";
import { userAccounts } from "../users/service";
import type { CampaignAlerts } from "./alerts";
import type { AlertsRepo } from "./alerts-repo";
import { digestDashboards, digestGroups } from "./digest-content";
import { digestMail } from "./digest-mail";

/** An open widget alert as the digest lists it (the widget-alerts feature's openForDigest). */
export interface DigestWidgetAlertRow {
  dashboardId: string;
  dashboardName: string;
  dashboardPermalink: string;
  widgetTitle: string;
  metricLabel: string;
  message: string;
  openedAt: string;
}

/** What the digest asks of the widget alerts: their open alerts, and which companies have any. */
export interface DigestWidgetAlerts {
  openForDigest(companyId: string): Promise<DigestWidgetAlertRow[]>;
  companiesWithOpen(): Promise<string[]>;
}

export const EVALUATE_JOB = "campaigns.evaluate";
export const SCHEDULE_ALERTS_JOB = "campaigns.schedule-alerts";
export const DIGEST_JOB = "campaigns.digest";

const ZEvaluatePayload = z.object({ companyId: z.string(), domainIds: z.array(z.string()).nullable() });
type TEvaluatePayload = z.infer<typeof ZEvaluatePayload>;
const ZDigestPayload = z.object({ companyId: z.string(), period: z.string() });
type TDigestPayload = z.infer<typeof ZDigestPayload>;

/**
 * The jobs around Mission Control alerts (docs/decisions.md, "Mission Control alerts"): evaluations asked for by a change of rules, a
 * pass every 15 minutes that re-judges domains whose snooze ended and queues each company's digest
 * when its period is due, and the digest itself, mailed once per period to the company's admins.
 */
export function campaignAlertJobs(
  ctx: AppContext,
  alerts: CampaignAlerts,
  repo: AlertsRepo,
  sender: SenderLookup,
  companiesWithDomains: () => Promise<string[]>,
  widgetAlerts?: () => DigestWidgetAlerts,
) {
  const users = userAccounts(ctx.db);

  /**
   * The company's time zone: that of the user who registered it (the account's owner), else its first
   * admin's. Companies have no zone of their own; reports carry theirs, the digest follows the owner.
   */
  async function companyZoneAndAdmins(companyId: string) {
    const members = await users.listByCompany(companyId);
    const admins = members.filter((user) => user.role === ROLE_ADMIN);
    const owner = members.find((user) => user.creator === 1) ?? admins[0];
    return { timezone: owner?.timezone || "UTC", admins };
  }

  /** Companies the digest may be due for: those tracking domains and those with a widget alert firing. */
  async function digestCompanies(): Promise<string[]> {
    const companies = new Set(await companiesWithDomains());
    for (const companyId of (await widgetAlerts?.().companiesWithOpen()) ?? []) companies.add(companyId);
    return [...companies];
  }

  /** Mails a period's digest once; nothing when no alert is open (an empty digest teaches people to ignore it). */
  async function sendDigest(payload: TDigestPayload): Promise<boolean> {
    const { companyId, period } = payload;
    const { digest } = await alerts.settings(companyId);
    const frequency = period.startsWith("weekly:") ? "weekly" : "daily";
    // Turned off or changed since it was queued.
    if (digest !== frequency) return false;
    const now = ctx.clock.now().toISOString();
    const rows = await repo.visibleOpenAlerts(companyId, now);
    const widgetRows = (await widgetAlerts?.().openForDigest(companyId)) ?? [];
    if (rows.length + widgetRows.length === 0) return false;
    const { admins } = await companyZoneAndAdmins(companyId);
    if (admins.length === 0) return false;
    const lastDigestAt = await repo.lastDigestAt(companyId);
    if (!(await repo.claimDigest(companyId, period, rows.length + widgetRows.length, now))) return false;
    try {
      const from = await sender(companyId);
      const mail = digestMail({
        companyName: from.fromName,
        frequency,
        groups: digestGroups(ctx.config.appUrl, rows, lastDigestAt),
        dashboards: digestDashboards(ctx.config.appUrl, widgetRows, lastDigestAt),
        settingsUrl: `${ctx.config.appUrl}/groups#alert-settings`,
      });
      await ctx.mailer.send({
        to: admins.map((admin) => admin.email).join(", "),
        ...mail,
        fromName: from.fromName,
        ...(from.fromAddress && { fromAddress: from.fromAddress }),
        ...(from.dkim && { dkim: from.dkim }),
        messageId: `<digest-${companyId}-${period.replace(/[^A-Za-z0-9.-]/g, "")}@${new URL(ctx.config.appUrl).hostname}>`,
      });
    } catch (error) {
      // Not sent: the period is free again for the job's retry.
      await repo.releaseDigest(companyId, period);
      throw error;
    }
    return true;
  }

  /** Queues what is due for every company tracking domains: re-judging ended snoozes, digests. */
  async function scheduleDue(): Promise<void> {
    const now = ctx.clock.now();
    for (const companyId of await digestCompanies()) {
      const ended = await alerts.snoozeEnded(companyId);
      if (ended.length > 0) await enqueueEvaluation(companyId, ended);
      const { digest } = await alerts.settings(companyId);
      const period = dueDigestPeriod(digest, now, (await companyZoneAndAdmins(companyId)).timezone);
      if (period) await ctx.jobs.enqueue(DIGEST_JOB, { companyId, period } satisfies TDigestPayload);
    }
  }

  async function enqueueEvaluation(companyId: string, domainIds: string[] | null): Promise<void> {
    // A fresh key each time: every change of rules deserves its own evaluation.
    await ctx.jobs.enqueue(EVALUATE_JOB, { companyId, domainIds } satisfies TEvaluatePayload, {
      key: `${EVALUATE_JOB}:${companyId}:${newId()}`,
    });
  }

  const evaluateJob: JobDefinition<TEvaluatePayload> = {
    name: EVALUATE_JOB,
    payload: ZEvaluatePayload,
    retry: { attempts: 3, backoffMs: 10_000 },
    async handle(payload) {
      await alerts.evaluate(payload.companyId, payload.domainIds);
    },
  };
  const digestJob: JobDefinition<TDigestPayload> = {
    name: DIGEST_JOB,
    payload: ZDigestPayload,
    key: (payload) => `${DIGEST_JOB}:${payload.companyId}:${payload.period}`,
    retry: { attempts: 5, backoffMs: 60_000 },
    async handle(payload) {
      await sendDigest(payload);
    },
  };
  const scheduleJob: JobDefinition<Record<string, never>> = {
    name: SCHEDULE_ALERTS_JOB,
    payload: z.object({}) as unknown as z.ZodType<Record<string, never>>,
    schedule: { everyMs: 15 * 60_000 },
    async handle() {
      await scheduleDue();
    },
  };
  const jobs: AnyJobDefinition[] = [evaluateJob, digestJob, scheduleJob];

  return {
    jobs,
    sendDigest,
    scheduleDue,
    enqueueEvaluation,
    /** Tells the company's open pages that a group's visible alerts changed (a snooze hid them). */
    async announce(companyId: string, campaignIds: string[]): Promise<void> {
      const message: TCampaignAlertsUpdated = { campaign_ids: campaignIds, opened: 0, resolved: 0 };
      await broadcastToCompany(ctx, companyId, REALTIME_EVENTS.campaignAlertsUpdated, message);
    },
  };
}

export type CampaignAlertJobs = ReturnType<typeof campaignAlertJobs>;
