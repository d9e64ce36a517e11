import type { TUser, TUserData } from "@app/core";
import { api } from "../../lib/api";

/** "Submit other data" of docs/product.md §7: intro and onboarding progress of the current user. */
export async function submitUserData(body: TUserData): Promise<TUser> {
  const result = await api<{ data: TUser }>("/api/user/data", { method: "POST", json: body });
  return result.data;
}
