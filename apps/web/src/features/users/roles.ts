import { ROLE_ADMIN, ROLE_USER } from "@app/core";

export const ROLE_OPTIONS = [
  { value: ROLE_USER, label: "User" },
  { value: ROLE_ADMIN, label: "Admin" },
];

export function roleLabel(roleName: string): string {
  return roleName === ROLE_ADMIN ? "Admin" : "User";
}
