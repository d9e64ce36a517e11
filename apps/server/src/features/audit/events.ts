import type { AuditAction } from "@app/core";
import type { AuditEvent } from "./record";

/**
 * The events features record, built from their own rows: one small builder per change, so a service adds
 * one `audit.record(trx, …)` line per change (docs/decisions.md, "The company audit log").
 */
type Member = { id: string; company_id: string; email: string; role: string };
const member = (row: Member) => ({ type: "user", id: row.id, label: row.email });

export const invited = (row: Member): AuditEvent => ({
  action: "member.invited",
  companyId: row.company_id,
  target: member(row),
  details: { role: row.role },
});

export const roleChanged = (row: Member, to: string): AuditEvent => ({
  action: "member.role_changed",
  companyId: row.company_id,
  target: member(row),
  details: { from: row.role, to },
});

export const memberRemoved = (row: Member): AuditEvent => ({
  action: "member.removed",
  companyId: row.company_id,
  target: member(row),
});

/** A dashboard's sharing changed (password, embed links, public link, archived or restored). */
export const dashboardShared = (
  action: Extract<AuditAction, `dashboard.${string}`>,
  row: { id: string; company_id: string; name: string },
  details?: Record<string, unknown>,
): AuditEvent => ({
  action,
  companyId: row.company_id,
  target: { type: "dashboard", id: row.id, label: row.name },
  details,
});

/** A source connected, re-authorised or removed: labelled by its connector and account, never its credentials. */
export const sourceChanged = (
  action: Extract<AuditAction, `source.${string}`>,
  row: { id: string; company_id: string; name: string; account: string | null },
  connectorName: string,
): AuditEvent => ({
  action,
  companyId: row.company_id,
  target: { type: "source", id: row.id, label: row.account ? `${connectorName} (${row.account})` : connectorName },
  details: { connector: row.name },
});

/** An automatic report created, changed, deleted or sent by hand, labelled by the dashboard it sends. */
export const reportChanged = (
  action: Extract<AuditAction, `report.${string}`>,
  report: { id: string; companyId: string; dashboardName: string },
  details?: Record<string, unknown>,
): AuditEvent => ({
  action,
  companyId: report.companyId,
  target: { type: "automatic_report", id: report.id, label: `report of ${report.dashboardName}` },
  details,
});

/** Subscription, billing, custom domain and sender changes: the company itself is the target. */
export const companyChanged = (
  action: Extract<AuditAction, `billing.${string}` | `company.${string}`>,
  companyId: string,
  details?: Record<string, unknown>,
): AuditEvent => ({ action, companyId, target: { type: "company", id: companyId, label: null }, details });

/** The user's own two-factor sign-in turned on or off, or new recovery codes made (never the codes). */
export const twoFactorChanged = (
  change: "enabled" | "disabled" | "recovery-codes",
  user: { id: string; company_id: string; email: string },
): AuditEvent => ({
  action: change === "recovery-codes" ? "two_factor.recovery_codes" : `two_factor.${change}`,
  companyId: user.company_id,
  target: { type: "user", id: user.id, label: user.email },
});

/** A passkey added or removed, labelled by the name its owner gave it (never its key). */
export const passkeyChanged = (
  action: "passkey.added" | "passkey.removed",
  passkey: { id: string; company_id: string; name: string },
): AuditEvent => ({
  action,
  companyId: passkey.company_id,
  target: { type: "passkey", id: passkey.id, label: passkey.name },
});
