import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Who is acting: a copy of the member's name and e-mail is kept, since members get deleted. No id (and
 * no e-mail): an outside party by name (Stripe, for changes made in its billing portal).
 */
export interface AuditActor {
  id: string | null;
  name: string;
  email: string;
}

/** What the audit log takes from the request being served: the signed-in member and where they are. */
export interface AuditRequest {
  actor: AuditActor | null;
  ip: string | null;
  userAgent: string | null;
}

/**
 * The request's audit facts for its async context (set by a preHandler hook in ./index.ts), so a service
 * records who changed what, and from which address, without every signature carrying the request
 * (docs/decisions.md, "The company audit log"). Jobs run outside any request: their events have no actor.
 */
const current = new AsyncLocalStorage<AuditRequest>();

export function withAuditRequest(request: AuditRequest, next: () => void): void {
  current.run(request, next);
}

export function auditRequest(): AuditRequest | undefined {
  return current.getStore();
}
