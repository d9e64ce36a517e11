import {
  classifyCode,
  type TRecoveryCodes,
  type TTwoFactorConfirm,
  type TTwoFactorSetup,
  type TTwoFactorStatus,
} from "@app/core";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import { AppError } from "../../infra/errors";
import { nowIso, seal, verifyPassword } from "../../infra/security";
import { twoFactorChanged } from "../audit/events";
import { auditLog } from "../audit/record";
import { type AuthState, sessionStore } from "../auth/service";
import { userHasPasskey } from "../passkeys/owned";
import { newRecoveryCodes, openSecret, spendCode } from "./codes";
import { type TwoFactorChange, twoFactorChangeMail } from "./mail";
import { twoFactorRepo } from "./repo";
import { twoFactorRequirement } from "./requirement";
import { hasAuthenticator, hasSecondFactor } from "./second-factor";
import { acceptedStep, newTotpSecret, totpUri } from "./totp";

const ALREADY_ON = "Two-factor sign-in is already on.";
const NOT_ON = "Two-factor sign-in is not on.";
const WRONG_CODE = "The code is not valid, or it was already used.";
const WRONG_PASSWORD = "The password is incorrect.";
const COMPANY_REQUIRES = "Your company requires two-factor sign-in, so it cannot be turned off.";
const NO_SETUP = "Start the set-up again: no new secret is waiting for a code.";
/** Wrong passwords and codes one user may give when asked again, per rate-limit window. */
const CONFIRM_KEY = (userId: string) => `two-factor.confirm:${userId}`;

/**
 * Two-factor settings of the signed-in user (docs/product.md, "Two-factor sign-in"): set-up confirmed by
 * a code, recovery codes, turning off, and the company's requirement. Each change mails the user and
 * ends their other sessions (the one making the change stays signed in).
 * @param forgetSessions makes every process drop its cached sessions (ended ones, or a changed company).
 */
export function twoFactorService(ctx: AppContext, forgetSessions: () => void) {
  const repo = twoFactorRepo(ctx.db);
  const siteTitleOf = (state: AuthState) => state.company.site_title || ctx.config.siteTitle;

  /** Applies a change with the end of the user's other sessions (both or neither), then mails the user. */
  async function commitChange(state: AuthState, change: TwoFactorChange, write: (trx: Db) => Promise<void>) {
    const { user } = state;
    await ctx.db.transaction().execute(async (trx) => {
      await write(trx);
      await sessionStore(trx).deleteSessionsOfUser(user.company_id, user.id, state.sessionId);
      await auditLog(ctx).record(trx, twoFactorChanged(change, user));
    });
    forgetSessions();
    try {
      await ctx.mailer.send(twoFactorChangeMail(user, change, siteTitleOf(state)));
    } catch (error) {
      // The change stands: the user made it and is signed in; the operator sees why the notice failed.
      ctx.logger.error({ err: error, userId: user.id, change }, "two-factor: the change notice could not be sent");
    }
  }

  /** The password or a current code again, for turning off and regenerating; a 422 on the field given. */
  async function confirmAgain(state: AuthState, input: TTwoFactorConfirm): Promise<void> {
    const key = CONFIRM_KEY(state.user.id);
    if ((await ctx.rateLimits.peek(key)) >= ctx.config.rateLimit.authMax) throw new AppError("too_many_requests");
    if (input.code !== undefined) {
      if (await spendCode(ctx, state.user, input.code)) return;
      await ctx.rateLimits.hit(key, ctx.config.rateLimit.windowMs);
      throw AppError.validation({ code: [WRONG_CODE] });
    }
    if (await verifyPassword(state.user.password_hash, input.password ?? "")) return;
    await ctx.rateLimits.hit(key, ctx.config.rateLimit.windowMs);
    throw AppError.validation({ password: [WRONG_PASSWORD] });
  }

  return {
    ...twoFactorRequirement(ctx, forgetSessions),

    async status(state: AuthState): Promise<TTwoFactorStatus> {
      const { user } = state;
      const enabled = await hasAuthenticator(ctx.db, user);
      const requires = state.company.require_two_factor === 1;
      return {
        enabled,
        // An authenticator's codes, or a passkey-only user's (made with their first passkey).
        recoveryCodesLeft: await repo.recoveryCodesLeft(user.company_id, user.id),
        companyRequires: requires,
        // A passkey meets the requirement too (hasSecondFactor).
        setupRequired: requires && !(enabled || (await hasSecondFactor(ctx.db, user))),
      };
    },

    /** A new secret, shown once; two-factor is on only once a code from it is confirmed (enable). */
    async setup(state: AuthState): Promise<TTwoFactorSetup> {
      const { user } = state;
      if (await hasAuthenticator(ctx.db, user)) throw AppError.validation({ general: [ALREADY_ON] });
      const secret = newTotpSecret();
      await repo.replaceUnconfirmed({
        user_id: user.id,
        company_id: user.company_id,
        secret_sealed: seal(ctx.config.appKey, secret),
        enabled_at: null,
        last_used_step: 0,
        created_at: nowIso(),
      });
      const uri = totpUri(secret, ctx.config.siteTitle, user.email);
      // Loaded here, not at start: only this set-up step draws a QR code.
      const { toDataURL } = await import("qrcode");
      return { secret, uri, qr: await toDataURL(uri, { margin: 1, width: 240 }) };
    },

    /** Turns two-factor on with a current code of the new secret; answers the recovery codes, shown once. */
    async enable(state: AuthState, typed: string): Promise<TRecoveryCodes> {
      const { user } = state;
      const row = await repo.find(user.company_id, user.id);
      if (row?.enabled_at) throw AppError.validation({ code: [ALREADY_ON] });
      if (!row) throw AppError.validation({ code: [NO_SETUP] });
      const code = classifyCode(typed);
      const now = ctx.clock.now();
      const secret = openSecret(ctx.config.appKey, row.secret_sealed);
      const step = code.kind === "totp" && secret !== null ? acceptedStep(secret, code.code, now) : null;
      if (step === null) throw AppError.validation({ code: [WRONG_CODE] });
      const codes = newRecoveryCodes(ctx.config.appKey, user.id);
      await commitChange(state, "enabled", async (trx) => {
        // The first code is spent like any other: confirming and signing in with one code is not possible.
        if (!(await twoFactorRepo(trx).useStep(user.company_id, user.id, step, now.toISOString()))) {
          throw AppError.validation({ code: [WRONG_CODE] });
        }
        await twoFactorRepo(trx).replaceRecoveryCodes(user.company_id, user.id, codes.hashes, now.toISOString());
      });
      return { recoveryCodes: codes.shown };
    },

    async disable(state: AuthState, input: TTwoFactorConfirm): Promise<TTwoFactorStatus> {
      const { user } = state;
      if (!(await hasAuthenticator(ctx.db, user))) throw AppError.validation({ general: [NOT_ON] });
      if (state.company.require_two_factor === 1) throw AppError.validation({ general: [COMPANY_REQUIRES] });
      await confirmAgain(state, input);
      // A passkey stays a second factor, and its recovery codes with it.
      const passkey = await userHasPasskey(ctx.db, user.id);
      await commitChange(state, "disabled", (trx) => twoFactorRepo(trx).remove(user.company_id, user.id, passkey));
      const recoveryCodesLeft = passkey ? await repo.recoveryCodesLeft(user.company_id, user.id) : 0;
      return { enabled: false, recoveryCodesLeft, companyRequires: false, setupRequired: false };
    },

    /** New recovery codes replace all the old ones (used or not); answered once. */
    async regenerateRecoveryCodes(state: AuthState, input: TTwoFactorConfirm): Promise<TRecoveryCodes> {
      const { user } = state;
      // An authenticator or a passkey: either one's recovery codes (a passkey-only user has them too).
      if (!(await hasSecondFactor(ctx.db, user))) throw AppError.validation({ general: [NOT_ON] });
      await confirmAgain(state, input);
      const codes = newRecoveryCodes(ctx.config.appKey, user.id);
      await commitChange(state, "recovery-codes", (trx) =>
        twoFactorRepo(trx).replaceRecoveryCodes(user.company_id, user.id, codes.hashes, nowIso()),
      );
      return { recoveryCodes: codes.shown };
    },
  };
}

export type TwoFactorService = ReturnType<typeof twoFactorService>;
