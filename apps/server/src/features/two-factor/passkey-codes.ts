import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import { nowIso } from "../../infra/security";
import { twoFactorChanged } from "../audit/events";
import { auditLog } from "../audit/record";
import { userHasPasskey } from "../passkeys/owned";
import { newRecoveryCodes } from "./codes";
import { twoFactorRepo } from "./repo";
import { hasAuthenticator, hasSecondFactor } from "./second-factor";

type CodeUser = { id: string; company_id: string; email: string };

/**
 * Recovery codes for a user whose first passkey is about to be their only second factor (no
 * authenticator app: its set-up gave them codes already), made on `trx`, the passkey's own transaction,
 * before the passkey row is inserted. Answers the codes to show once, or null when none are made. The
 * same codes as TOTP's: ten, stored hashed, each signs in once at the second step, regenerable from the
 * profile (docs/decisions.md, "Recovery codes for passkey-only users").
 */
export async function recoveryCodesForFirstPasskey(ctx: AppContext, trx: Db, user: CodeUser): Promise<string[] | null> {
  if ((await hasAuthenticator(trx, user)) || (await userHasPasskey(trx, user.id))) return null;
  const codes = newRecoveryCodes(ctx.config.appKey, user.id);
  await twoFactorRepo(trx).replaceRecoveryCodes(user.company_id, user.id, codes.hashes, nowIso());
  await auditLog(ctx).record(trx, twoFactorChanged("recovery-codes", user));
  return codes.shown;
}

/** After a second factor went (on `trx`): a user left with none keeps no recovery codes either. */
export async function dropCodesWithoutSecondFactor(trx: Db, user: { id: string; company_id: string }): Promise<void> {
  if (await hasSecondFactor(trx, user)) return;
  await twoFactorRepo(trx).removeRecoveryCodes(user.company_id, user.id);
}
