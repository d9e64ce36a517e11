import type { Db } from "../../infra/db";
import type { UsersTable } from "../../infra/db/schema";
import { twoFactorRepo } from "./repo";

/**
 * Whether `user` signs in with a second factor: today an authenticator (TOTP) that is on. The one
 * question the sign-in's second step and the company's "two-factor required" rule ask, so another kind
 * of second factor (a passkey) is added here and nowhere else.
 */
export async function hasSecondFactor(db: Db, user: Pick<UsersTable, "id" | "company_id">): Promise<boolean> {
  const row = await twoFactorRepo(db).find(user.company_id, user.id);
  return Boolean(row?.enabled_at);
}
