import type { AppContext } from "../../context";
import { sessionStore } from "../auth/service";
import { removeUserPasskeys } from "../passkeys/owned";
import { userAccounts } from "../users/service";
import { twoFactorChangeMail } from "./mail";
import { twoFactorRepo } from "./repo";

/**
 * The operator's reset (docs/operations.md, "Resetting a user's second factor"): a user who lost their
 * authenticator and their recovery codes. Every second factor of theirs is removed (the authenticator, the
 * recovery codes and their passkeys: a passkey is a second factor too, and the lost device may hold one),
 * every session of theirs ends (whoever holds one signs in again with the password), and they are mailed.
 * Answers false when no user has that e-mail.
 */
export async function resetSecondFactor(ctx: AppContext, email: string): Promise<boolean> {
  const user = await userAccounts(ctx.db).findByEmail(email.trim().toLowerCase());
  if (!user) return false;
  await ctx.db.transaction().execute(async (trx) => {
    await twoFactorRepo(trx).remove(user.company_id, user.id);
    await removeUserPasskeys(trx, user.company_id, user.id);
    await sessionStore(trx).deleteSessionsOfUser(user.company_id, user.id);
  });
  // Other processes' cached sessions of the user go too (the bus carries it).
  await ctx.events.publish("session.revoked", {});
  await ctx.mailer.send(twoFactorChangeMail(user, "reset", ctx.config.siteTitle));
  return true;
}
