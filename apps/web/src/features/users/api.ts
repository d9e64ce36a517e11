import type { TUser, TUserCreate, TUserUpdate } from "@app/core";
import { api } from "../../lib/api";

export async function fetchUsers(): Promise<TUser[]> {
  return (await api<{ data: TUser[] }>("/api/users")).data;
}

/** Creates a team member and sends the invitation e-mail. */
export async function inviteUser(body: TUserCreate): Promise<TUser> {
  return (await api<{ data: TUser }>("/api/users", { method: "POST", json: body })).data;
}

export async function updateUser(id: string, body: TUserUpdate): Promise<TUser> {
  return (await api<{ data: TUser }>(`/api/users/${encodeURIComponent(id)}`, { method: "PUT", json: body })).data;
}

export async function deleteUser(id: string): Promise<void> {
  await api<undefined>(`/api/users/${encodeURIComponent(id)}`, { method: "DELETE" });
}
