/**
 * The company audit log's closed list of actions (docs/product.md §3 "Audit events"): each action's group
 * (what the log's filter offers), its plain words (what the log page and the CSV say) and the detail keys
 * it may keep. Adding an action is one line here. Details are an allow-list, never a secret: a key not
 * listed for its action is dropped before the row is written (`allowedDetails`), so a password, token,
 * code or key handed over by mistake never reaches the table or the server log.
 */

export const AUDIT_GROUPS = {
  "sign-ins": "Sign-ins",
  security: "Two-factor and passkeys",
  members: "Members",
  sources: "Sources",
  dashboards: "Dashboard sharing",
  reports: "Automatic reports",
  billing: "Subscription and billing",
  company: "Domain and sender",
} as const;
export type AuditGroup = keyof typeof AUDIT_GROUPS;

interface ActionEntry {
  group: AuditGroup;
  /** What the actor did, completed by the target's label: "invited member", then "mia@example.com". */
  words: string;
  /** Detail keys kept for this action (values are short strings, numbers or booleans). */
  details: readonly string[];
}

const entry = (group: AuditGroup, words: string, details: readonly string[] = []): ActionEntry => ({
  group,
  words,
  details,
});

export const AUDIT_ACTIONS = {
  "auth.sign_in": entry("sign-ins", "signed in"),
  "auth.sign_in_failed": entry("sign-ins", "failed sign-in (wrong password) for", ["email"]),
  "two_factor.enabled": entry("security", "turned on two-factor sign-in for"),
  "two_factor.disabled": entry("security", "turned off two-factor sign-in for"),
  "two_factor.recovery_codes": entry("security", "made new recovery codes for"),
  "two_factor.company_required": entry("security", "changed whether the company requires two-factor sign-in", [
    "required",
  ]),
  "passkey.added": entry("security", "added passkey"),
  "passkey.removed": entry("security", "removed passkey"),
  "member.invited": entry("members", "invited member", ["role"]),
  "member.role_changed": entry("members", "changed the role of member", ["from", "to"]),
  "member.removed": entry("members", "removed member"),
  "source.connected": entry("sources", "connected source", ["connector"]),
  "source.reauthorised": entry("sources", "re-authorised source", ["connector"]),
  "source.removed": entry("sources", "removed source", ["connector"]),
  "dashboard.archived": entry("dashboards", "archived (took the public link down of) dashboard"),
  "dashboard.restored": entry("dashboards", "restored (made public again) dashboard"),
  "dashboard.password_set": entry("dashboards", "set a password on dashboard"),
  "dashboard.password_removed": entry("dashboards", "removed the password of dashboard"),
  "dashboard.embed_created": entry("dashboards", "created an embed link for dashboard", ["days"]),
  "dashboard.embed_revoked": entry("dashboards", "revoked the embed links of dashboard"),
  "dashboard.permalink_refreshed": entry("dashboards", "refreshed the public link of dashboard"),
  "report.created": entry("reports", "created automatic report"),
  "report.changed": entry("reports", "changed automatic report"),
  "report.deleted": entry("reports", "deleted automatic report"),
  "report.sent": entry("reports", "sent by hand automatic report", ["recipients"]),
  "billing.plan_changed": entry("billing", "changed the subscription to", ["dashboards", "interval"]),
  "billing.canceled": entry("billing", "canceled the subscription"),
  "billing.resumed": entry("billing", "resumed the subscription"),
  "billing.payment_method": entry("billing", "opened the payment method page"),
  "billing.card_changed": entry("billing", "changed the payment card"),
  "billing.details_changed": entry("billing", "changed the billing details"),
  "company.domain_changed": entry("company", "changed the custom domain to", ["domain"]),
  "company.sender_changed": entry("company", "changed the sender address to", ["address"]),
} as const satisfies Record<string, ActionEntry>;
export type AuditAction = keyof typeof AUDIT_ACTIONS;

export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

export function isAuditAction(value: string): value is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, value);
}

/** The actions a filter value stands for: one action, every action of a group, or none (unknown). */
export function actionsOfFilter(filter: string): AuditAction[] {
  if (isAuditAction(filter)) return [filter];
  return AUDIT_ACTION_NAMES.filter((action) => AUDIT_ACTIONS[action].group === filter);
}

export type AuditDetailValue = string | number | boolean;
const MAX_DETAIL_TEXT = 200;

/**
 * The details an action may keep: listed keys only, scalar values only, text cut to 200 characters.
 * Everything else (a `password`, a `token`, an object that could hold either) is dropped.
 */
export function allowedDetails(action: AuditAction, details: Record<string, unknown> = {}) {
  const allowed: readonly string[] = AUDIT_ACTIONS[action].details;
  const kept: Record<string, AuditDetailValue> = {};
  for (const key of allowed) {
    const value = details[key];
    if (typeof value === "string") kept[key] = value.slice(0, MAX_DETAIL_TEXT);
    else if (typeof value === "number" && Number.isFinite(value)) kept[key] = value;
    else if (typeof value === "boolean") kept[key] = value;
  }
  return kept;
}

/** The event in plain words: "invited member mia@example.com (role: user)". */
export function describeAuditEvent(
  action: string,
  targetLabel: string | null,
  details: Record<string, AuditDetailValue>,
): string {
  const words = isAuditAction(action) ? AUDIT_ACTIONS[action].words : action;
  const facts = Object.entries(details).map(([key, value]) => `${key}: ${value}`);
  return [words, targetLabel ?? "", facts.length ? `(${facts.join(", ")})` : ""].filter(Boolean).join(" ");
}
