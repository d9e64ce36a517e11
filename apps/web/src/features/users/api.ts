import type { TUser, TUserCreate, TUserUpdate } from "@app/core";
import { call } from "../../lib/api";

export async function fetchUsers(): Promise<TUser[]> {
  return (await call("usersList")).data;
}

/** Creates a team member and sends the invitation e-mail. */
export async function inviteUser(body: TUserCreate): Promise<TUser> {
  return (await call("userInvite", { body })).data;
}

export async function updateUser(id: string, body: TUserUpdate): Promise<TUser> {
  return (await call("userUpdate", { params: { id }, body })).data;
}

export async function deleteUser(id: string): Promise<void> {
  await call("userDelete", { params: { id } });
}
