import type { Db } from "../../infra/db";
import { passkeysRepo } from "./repo";

/**
 * Whether a user has registered a passkey: for features/two-factor, where a passkey is a second factor
 * (the sign-in's second step offers it, and it meets a company's "two-factor required").
 */
export async function userHasPasskey(db: Db, userId: string): Promise<boolean> {
  return (await passkeysRepo(db).countOfUser(userId)) > 0;
}

/**
 * Removes every passkey of a user: for the operator's reset (features/two-factor/reset.ts), where the user
 * lost the device that held their factors; a passkey left behind would still be asked at the second step
 * and would still sign in whoever holds that device. Answers how many went.
 */
export function removeUserPasskeys(db: Db, companyId: string, userId: string): Promise<number> {
  return passkeysRepo(db).deleteAllOfUser(companyId, userId);
}
