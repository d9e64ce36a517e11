import { z } from "zod";
import { AUDIT_ACTION_NAMES, AUDIT_GROUPS, actionsOfFilter } from "../audit/actions";
import { isValidDay } from "../dates/day";
import { ZPageMeta } from "./common";

export const AUDIT_MESSAGES = {
  action: "The action must be one of the audit log's actions or groups.",
  actor: "The actor must be a member id.",
  date: "The date must be written YYYY-MM-DD.",
  range: "The end date must not be before the start date.",
} as const;

// A calendar day, not only its shape (isValidDay checks both): Date.parse reads 2025-02-30 as 2 March,
// and the service's time-zone arithmetic then failed on it (a 500 where the filter deserves a 422).
const zDay = z.string().refine(isValidDay, AUDIT_MESSAGES.date);

/**
 * GET /api/company/audit-log and its CSV export (admins): filter by an action or a group of actions, by
 * the member who acted, by days (`from`, `to`, inclusive, in the company's time zone); newest first.
 */
export const ZAuditLogQuery = z
  .object({
    action: z
      .string()
      .max(64)
      .refine((value) => actionsOfFilter(value).length > 0, AUDIT_MESSAGES.action)
      .optional(),
    actor: z
      .string()
      .max(32, AUDIT_MESSAGES.actor)
      .regex(/^[A-Za-z0-9_-]+$/, AUDIT_MESSAGES.actor)
      .optional(),
    from: zDay.optional(),
    to: zDay.optional(),
    page: z.coerce.number().int().min(1).default(1),
    perPage: z.coerce.number().int().min(1).max(100).default(50),
  })
  .superRefine((value, ctx) => {
    // Only two well-formed days are compared (a malformed one has its own message).
    if (value.from && value.to && isValidDay(value.from) && isValidDay(value.to) && value.to < value.from)
      ctx.addIssue({ code: "custom", path: ["to"], message: AUDIT_MESSAGES.range });
  });
export type TAuditLogQuery = z.infer<typeof ZAuditLogQuery>;

export const ZAuditEvent = z.object({
  id: z.string(),
  at: z.string().meta({ description: "When it happened (ISO 8601, UTC)" }),
  action: z.enum(AUDIT_ACTION_NAMES as [string, ...string[]]),
  group: z.enum(Object.keys(AUDIT_GROUPS) as [string, ...string[]]),
  description: z.string().meta({ description: "The event in plain words" }),
  actor: z
    .object({ id: z.string().nullable(), name: z.string(), email: z.string() })
    .nullable()
    .meta({ description: "Who acted (a copy kept when the member is removed); null: the system" }),
  target: z.object({ type: z.string(), id: z.string().nullable(), label: z.string().nullable() }).nullable(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type TAuditEvent = z.infer<typeof ZAuditEvent>;

export const ZAuditLogResponse = z.object({
  data: z.array(ZAuditEvent),
  meta: ZPageMeta.extend({ timezone: z.string().meta({ description: "The company's time zone" }) }),
});
export type TAuditLogResponse = z.infer<typeof ZAuditLogResponse>;

export const ZAuditCsv = z.string().meta({ format: "binary", description: "The filtered log as CSV" });
