import type { TUser, TUserData } from "@app/core";
import { call } from "../../lib/api";

/** "Submit other data" of docs/product.md §7: intro and onboarding progress of the current user. */
export async function submitUserData(body: TUserData): Promise<TUser> {
  return (await call("userData", { body })).data;
}
