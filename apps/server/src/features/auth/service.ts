import { BILLING_MESSAGES, type TSetPassword } from "@app/core";
import { LRUCache } from "lru-cache";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import type { CompaniesTable, SessionsTable, UsersTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import type { SessionClient } from "../../infra/http";
import { hashPassword, hmac, newId, newToken, nowIso, sha256, verifyPassword } from "../../infra/security";
import type { SessionCache } from "../../infra/session-cache";
import { auditLog, signedIn, signInRefused } from "../audit/record";
import type { CheckoutClaims } from "../billing/claim";
import type { CompaniesService } from "../companies/service";
import type { SignInResult } from "../two-factor/pending";
import { userAccounts } from "../users/service";
import { registrationUseCase } from "./registration";
import { authRepo } from "./repo";

export interface SessionData {
  dates: Record<string, unknown>;
  authorization: Record<string, string>;
}

/** A resolved, valid session with its user and company rows. */
export interface AuthState {
  sessionId: string;
  user: UsersTable;
  company: CompaniesTable;
  data: SessionData;
  /**
   * Whether the user has a second factor, once a request asked (features/two-factor's requirement):
   * kept with the cached session, which every process drops when a factor is added or removed.
   */
  secondFactor?: boolean;
}

const INVALID_CREDENTIALS = "These credentials do not match our records.";
// Touch last_seen at most once a minute: a write per request would serialise SQLite.
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Sessions and invitations as other features change them (users: invite, end a user's sessions), on
 * `db` or on a transaction passed as `db`; never through the auth repo.
 */
export function sessionStore(db: Db) {
  const repo = authRepo(db);
  return {
    insertInvitation: repo.insertInvitation,
    deleteSessionsOfUser: repo.deleteSessionsOfUser,
  };
}
export type { RegistrationExtras } from "./registration";

/**
 * Sessions and sign-in: starting and ending sessions, resolving a cookie, login, logout, an invited user's
 * password. Registration is its own module (registration.ts), given the session steps from here.
 */
export function authService(
  ctx: AppContext,
  companies: CompaniesService,
  cache: SessionCache<AuthState>,
  // Absent where payments cannot exist (test factories): a registration naming a checkout is refused.
  checkouts: () => CheckoutClaims | null = () => null,
  secondStep: (user: UsersTable) => Promise<SignInResult | null> = async () => null,
) {
  const claims = (): CheckoutClaims => {
    const found = checkouts();
    if (!found) throw AppError.validation({ order_ref: [BILLING_MESSAGES.paymentsOff] });
    return found;
  };
  const repo = authRepo(ctx.db);
  const users = userAccounts(ctx.db);
  // Every request hashes its session cookie and every mutation computes its expected identification:
  // pure functions of the same few inputs, each costing microseconds, so their results are kept.
  const tokenHash = memoized(sha256);
  const identification = memoized((input: string) => hmac(ctx.config.appKey, input));

  /** Creates a server-side session and returns the cookie token (only its hash is stored); audited as a sign-in. */
  async function startSession(user: UsersTable, db: Db = ctx.db): Promise<string> {
    const token = newToken();
    await auditLog(ctx).within(db, signedIn(user), (trx) => authRepo(trx).insertSession(sessionRow(token, user, ctx)));
    return token;
  }

  /** Deletes a session and tells every process to forget its cached copy (after the row is gone, so none re-reads it). */
  async function endSession(id: string): Promise<void> {
    cache.delete(id);
    await repo.deleteSession(id);
    await ctx.events.publish("session.revoked", { tokenHash: id });
  }

  return {
    startSession,
    endSession,
    ...registrationUseCase({ ctx, companies, claims, users, startSession, endSession }),

    /** Verifies credentials; a new session token every time (rotation at login), or first the second step. */
    async login(email: string, password: string, previousToken: string | null): Promise<SignInResult> {
      const user = await users.findByEmail(email.trim().toLowerCase());
      // Verify against a dummy hash when the user is unknown, so timing does not reveal accounts.
      const ok = await verifyPassword(user?.password_hash ?? DUMMY_HASH, password);
      if (user && !ok) await auditLog(ctx).record(ctx.db, signInRefused(user));
      if (!user || !ok) throw AppError.validation({ email: [INVALID_CREDENTIALS] });
      // A user with a second factor gets a pending sign-in, no session yet (features/two-factor).
      const pending = await secondStep(user);
      if (pending) return pending;
      if (previousToken) await endSession(sha256(previousToken));
      return { token: await startSession(user), redirect: "/dashboards" };
    },

    async logout(token: string | null): Promise<void> {
      if (token) await endSession(sha256(token));
    },

    /** An invited user sets their password from the e-mailed link and is signed in. */
    async setPassword(input: TSetPassword): Promise<{ token: string; redirect: string }> {
      const now = nowIso();
      const invitation = await repo.findOpenInvitation(sha256(input.token), now);
      if (!invitation) throw AppError.validation({ general: ["This invitation link is invalid or has expired."] });
      const user = await users.find(invitation.company_id, invitation.user_id);
      if (!user) throw AppError.validation({ general: ["This invitation link is invalid or has expired."] });
      const passwordHash = await hashPassword(input.password);
      // The password, the spent invitation and the new session: all three or none.
      const token = await ctx.db.transaction().execute(async (trx) => {
        await userAccounts(trx).setPasswordHash(user.company_id, user.id, passwordHash);
        await authRepo(trx).markInvitationUsed(invitation.token_hash, now);
        return startSession(user, trx);
      });
      return { token, redirect: "/dashboards" };
    },

    /** Resolves a cookie token to a live session, or null. */
    async resolve(token: string | null, client?: SessionClient): Promise<AuthState | null> {
      if (!token) return null;
      const id = tokenHash(token);
      const cached = cache.get(id);
      if (cached) return cached;
      const generation = cache.generation();
      const session = await repo.findSession(id);
      if (!session || session.expires_at <= nowIso()) return null;
      const user = await users.find(session.company_id, session.user_id);
      if (!user) return null;
      const company = await companies.load(session.company_id).catch(() => null);
      if (!company) return null;
      const due = Date.now() - Date.parse(session.last_seen_at) > TOUCH_INTERVAL_MS;
      // The first request of a session, and then one a minute at most, records its browser and address.
      if (due || (client?.address && session.ip_address === null)) await repo.touchSession(id, nowIso(), client);
      const state: AuthState = { sessionId: id, user, company, data: JSON.parse(session.data) as SessionData };
      cache.set(id, state, generation);
      return state;
    },

    /**
     * The `identification` value of page data: bound to the session (or to the guest cookie),
     * so a request from another session's page gets 419.
     */
    identificationFor(sessionId: string | null, guestId: string | null): string {
      if (sessionId) return identification(`session:${sessionId}`);
      return identification(`guest:${guestId ?? ""}`);
    },
  };
}

/** A new session's row: its id is the token's hash; its browser and address come with its first request. */
function sessionRow(token: string, user: UsersTable, ctx: AppContext): SessionsTable {
  const now = new Date();
  return {
    id: sha256(token),
    user_id: user.id,
    company_id: user.company_id,
    data: JSON.stringify({ dates: {}, authorization: {} } satisfies SessionData),
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    expires_at: new Date(now.getTime() + ctx.config.sessionTtlDays * 86400_000).toISOString(),
    public_id: newId(),
    user_agent: null,
    ip_address: null,
  };
}

/** A pure string function with its last 10,000 results kept. */
function memoized(fn: (input: string) => string): (input: string) => string {
  const results = new LRUCache<string, string>({ max: 10_000 });
  return (input) => {
    let result = results.get(input);
    if (result === undefined) {
      result = fn(input);
      results.set(input, result);
    }
    return result;
  };
}

// argon2id hash of a random string, used only to spend the same time on unknown e-mails.
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$2qu6Mk6oW9VyD1QXoVY2Rk8H3Oc7mQ9aYl1yU6o2V4o";

export type AuthService = ReturnType<typeof authService>;
