import {
  AUDIT_ACTIONS,
  type AuditDetailValue,
  actionsOfFilter,
  csvLine,
  describeAuditEvent,
  instantOfWallTime,
  isAuditAction,
  parseDay,
  shiftDay,
  type TAuditEvent,
  type TAuditLogQuery,
  type TAuditLogResponse,
} from "@app/core";
import { z } from "zod";
import type { AppContext } from "../../context";
import type { AuditEventsTable } from "../../infra/db/schema";
import type { JobDefinition } from "../../infra/jobs";
import type { CompaniesService } from "../companies/service";
import type { Actor } from "../users/service";
import { type AuditFilter, auditRepo } from "./repo";

export const AUDIT_RETENTION_JOB = "audit.retention";
const DAY_MS = 86_400_000;
/** The CSV export's ceiling: a year of a busy company's log, in pages read one after another. */
const CSV_MAX_ROWS = 100_000;
const CSV_PAGE = 1_000;

function present(row: AuditEventsTable): TAuditEvent {
  const details = JSON.parse(row.details) as Record<string, AuditDetailValue>;
  return {
    id: row.id,
    at: row.created_at,
    action: row.action,
    group: isAuditAction(row.action) ? AUDIT_ACTIONS[row.action].group : "company",
    description: describeAuditEvent(row.action, row.target_label, details),
    actor: row.actor_name !== null ? { id: row.actor_id, name: row.actor_name, email: row.actor_email ?? "" } : null,
    target: row.target_type ? { type: row.target_type, id: row.target_id, label: row.target_label } : null,
    details,
    ip: row.ip,
    userAgent: row.user_agent,
  };
}

/**
 * The company audit log for its admins (docs/product.md §3 "Audit events"): filtered, paged, newest
 * first, or the whole filtered log as CSV; and the daily retention pass (AUDIT_RETENTION_DAYS).
 */
export function auditService(ctx: AppContext, companies: () => CompaniesService) {
  const repo = auditRepo(ctx.db);

  /** The query's days are the company's days: `from` starts at its midnight, `to` ends at the next one. */
  function filterOf(query: TAuditLogQuery, timezone: string): AuditFilter {
    const midnight = (day: string) => {
      const date = parseDay(day);
      const wall = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
      return instantOfWallTime({ ...wall, hour: 0, minute: 0 }, timezone).toISOString();
    };
    return {
      actions: query.action ? actionsOfFilter(query.action) : undefined,
      actorId: query.actor,
      since: query.from ? midnight(query.from) : undefined,
      before: query.to ? midnight(shiftDay(query.to, 1)) : undefined,
    };
  }

  async function timezoneOf(companyId: string): Promise<string> {
    return (await companies().load(companyId)).timezone;
  }

  async function purge(): Promise<number> {
    const cutoff = new Date(ctx.clock.now().getTime() - ctx.config.auditRetentionDays * DAY_MS).toISOString();
    const deleted = await repo.deleteOlderThan(cutoff);
    if (deleted > 0) ctx.logger.info({ deleted, cutoff }, "audit log retention");
    return deleted;
  }

  return {
    /** GET /api/company/audit-log (admins). */
    async list(actor: Actor, query: TAuditLogQuery): Promise<TAuditLogResponse> {
      const timezone = await timezoneOf(actor.companyId);
      const filter = filterOf(query, timezone);
      const [rows, total] = await Promise.all([
        repo.list(actor.companyId, filter, (query.page - 1) * query.perPage, query.perPage),
        repo.count(actor.companyId, filter),
      ]);
      return {
        data: rows.map(present),
        meta: {
          currentPage: query.page,
          perPage: query.perPage,
          total,
          lastPage: Math.max(1, Math.ceil(total / query.perPage)),
          timezone,
        },
      };
    },

    /** GET /api/company/audit-log/export (admins): the same filter, every page, as CSV (times in UTC, ISO 8601). */
    async csv(actor: Actor, query: TAuditLogQuery): Promise<string> {
      const filter = filterOf(query, await timezoneOf(actor.companyId));
      const lines = [csvLine(["Time (UTC)", "Who", "E-mail", "Action", "What", "Target", "Address", "Browser"])];
      for (let offset = 0; offset < CSV_MAX_ROWS; offset += CSV_PAGE) {
        const rows = await repo.list(actor.companyId, filter, offset, CSV_PAGE);
        for (const event of rows.map(present)) {
          lines.push(
            csvLine([
              event.at,
              event.actor?.name ?? "System",
              event.actor?.email ?? "",
              event.action,
              event.description,
              event.target?.label ?? "",
              event.ip ?? "",
              event.userAgent ?? "",
            ]),
          );
        }
        if (rows.length < CSV_PAGE) break;
      }
      return lines.join("");
    },

    purge,

    /** Daily: deletes every company's rows older than AUDIT_RETENTION_DAYS. */
    retentionJob(): JobDefinition<Record<string, never>> {
      return {
        name: AUDIT_RETENTION_JOB,
        payload: z.object({}) as unknown as z.ZodType<Record<string, never>>,
        schedule: { cron: "17 3 * * *" },
        retry: { attempts: 3, backoffMs: 60_000 },
        handle: async () => {
          await purge();
        },
      };
    },
  };
}

export type AuditService = ReturnType<typeof auditService>;
