import type { Db } from "../../infra/db";
import { passkeysRepo } from "./repo";

/**
 * Whether a user has registered a passkey: for features/two-factor, where a passkey is a second factor
 * (the sign-in's second step offers it, and it meets a company's "two-factor required").
 */
export async function userHasPasskey(db: Db, userId: string): Promise<boolean> {
  return (await passkeysRepo(db).countOfUser(userId)) > 0;
}
