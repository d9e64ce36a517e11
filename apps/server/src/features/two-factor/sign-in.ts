import { TWO_FACTOR_LOGIN_PATH } from "@app/core";
import { z } from "zod";
import type { AppContext } from "../../context";
import type { UsersTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import type { JobDefinition } from "../../infra/jobs";
import { newToken, sha256 } from "../../infra/security";
import { userAccounts } from "../users/service";
import { spendCode } from "./codes";
import { MAX_PENDING_FAILURES, PENDING_TTL_MS, type SignInResult } from "./pending";
import { twoFactorRepo } from "./repo";
import { hasSecondFactor } from "./second-factor";

const EXPIRED = "Your sign-in has expired. Please sign in again.";
const WRONG_CODE = "The code is not valid, or it was already used.";
const TOO_MANY = "Too many wrong codes. Please sign in again.";

export const PENDING_SWEEP_JOB = "two-factor.pending-sweep";
/** How often expired pending sign-ins are deleted: each lives PENDING_TTL_MS, so a few at most linger. */
export const PENDING_SWEEP_EVERY_MS = 15 * 60_000;

/** What completing a sign-in needs of the auth feature: a new session, and the end of the browser's old one. */
export interface SessionStarter {
  startSession(user: UsersTable): Promise<string>;
  logout(token: string | null): Promise<void>;
}

/**
 * Sign-in in two steps (docs/product.md, "Two-factor sign-in"): the password (or a social provider)
 * opens a pending sign-in bound to the user, a second factor completes it. Only the pending token's
 * hash is kept; it lasts PENDING_TTL_MS and MAX_PENDING_FAILURES wrong codes.
 */
export function pendingSignIns(ctx: AppContext, sessions: () => SessionStarter) {
  const repo = twoFactorRepo(ctx.db);
  const users = userAccounts(ctx.db);

  async function openPending(token: string | null) {
    if (!token) return null;
    const row = await repo.findPending(sha256(token));
    if (!row || row.expires_at <= ctx.clock.now().toISOString()) return null;
    return row;
  }

  /**
   * Completes the pending sign-in of `pendingToken` for `verifiedUserId`, whom a second factor has just
   * verified: the pending sign-in ends (once: of two racing completions one gets the session), the
   * browser's previous session ends, and a new session starts. A passkey completes it the same way.
   */
  async function completePendingSignIn(
    pendingToken: string | null,
    verifiedUserId: string,
    previousToken: string | null,
  ): Promise<SignInResult> {
    const pending = await openPending(pendingToken);
    if (!pending || pending.user_id !== verifiedUserId) throw AppError.validation({ code: [EXPIRED] });
    const user = await users.find(pending.company_id, pending.user_id);
    if (!user || !(await repo.deletePending(pending.id))) throw AppError.validation({ code: [EXPIRED] });
    await sessions().logout(previousToken);
    return { token: await sessions().startSession(user), redirect: "/dashboards" };
  }

  return {
    completePendingSignIn,

    /**
     * Deletes the pending sign-ins past their PENDING_TTL_MS (an expired one is refused anyway: this only
     * keeps the table small and forgets abandoned sign-ins without waiting for the next one to begin).
     */
    sweepJob(): JobDefinition<Record<string, never>> {
      return {
        name: PENDING_SWEEP_JOB,
        payload: z.object({}) as unknown as z.ZodType<Record<string, never>>,
        schedule: { everyMs: PENDING_SWEEP_EVERY_MS },
        retry: { attempts: 3, backoffMs: 60_000 },
        handle: async () => {
          await repo.deleteExpiredPending(ctx.clock.now().toISOString());
        },
      };
    },

    /** The user a pending sign-in waits for (a passkey's challenge is built for them), or null. */
    async pendingUser(pendingToken: string | null): Promise<UsersTable | null> {
      const pending = await openPending(pendingToken);
      return pending ? ((await users.find(pending.company_id, pending.user_id)) ?? null) : null;
    },

    /**
     * After the password or a provider's sign-in: a pending sign-in when the user has a second factor,
     * null when they have none (they are signed in at once, as before).
     */
    async begin(user: UsersTable): Promise<SignInResult | null> {
      if (!(await hasSecondFactor(ctx.db, user))) return null;
      const token = newToken();
      const now = ctx.clock.now();
      await repo.insertPending({
        id: sha256(token),
        user_id: user.id,
        company_id: user.company_id,
        failures: 0,
        expires_at: new Date(now.getTime() + PENDING_TTL_MS).toISOString(),
        created_at: now.toISOString(),
      });
      return { token, redirect: TWO_FACTOR_LOGIN_PATH, pending: true };
    },

    /** POST /login/two-factor: an authenticator or recovery code completes the pending sign-in. */
    async completeWithCode(
      pendingToken: string | null,
      code: string,
      previousToken: string | null,
    ): Promise<SignInResult> {
      const pending = await openPending(pendingToken);
      const user = pending ? await users.find(pending.company_id, pending.user_id) : undefined;
      if (!pending || !user) throw AppError.validation({ code: [EXPIRED] });
      if (!(await spendCode(ctx, user, code))) {
        if ((await repo.countFailure(pending.id)) < MAX_PENDING_FAILURES) {
          throw AppError.validation({ code: [WRONG_CODE] });
        }
        await repo.deletePending(pending.id);
        throw AppError.validation({ code: [TOO_MANY] });
      }
      return completePendingSignIn(pendingToken, user.id, previousToken);
    },
  };
}

export type PendingSignIns = ReturnType<typeof pendingSignIns>;
