import type { Db } from "../../infra/db";
import type { UsersTable } from "../../infra/db/schema";
import { userHasPasskey } from "../passkeys/owned";
import { twoFactorRepo } from "./repo";

/** Whether `user` has an authenticator (TOTP) that is on: what the profile's two-factor settings manage. */
export async function hasAuthenticator(db: Db, user: Pick<UsersTable, "id" | "company_id">): Promise<boolean> {
  const row = await twoFactorRepo(db).find(user.company_id, user.id);
  return Boolean(row?.enabled_at);
}

/**
 * Whether `user` signs in with a second factor: an authenticator (TOTP) that is on, or a registered
 * passkey. The one question the sign-in's second step and the company's "two-factor required" rule ask.
 */
export async function hasSecondFactor(db: Db, user: Pick<UsersTable, "id" | "company_id">): Promise<boolean> {
  return (await hasAuthenticator(db, user)) || (await userHasPasskey(db, user.id));
}
