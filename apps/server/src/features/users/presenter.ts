import type { TUser } from "@app/core";
import type { UsersTable } from "../../infra/db/schema";

/** The user as the API shows it: never the password hash. */
export function presentUser(row: UsersTable): TUser {
  const roleName = row.role === "admin" ? "admin" : "user";
  return {
    id: row.id,
    name: row.name,
    role: roleName === "admin" ? "Admin" : "User",
    roleName,
    email: row.email,
    avatar: row.avatar,
    creator: row.creator === 1,
    companyId: row.company_id,
    ageConsent: row.age_consent === 1,
    termsConsent: row.terms_consent === 1,
    introPassed: row.intro_passed === 1,
    timezone: row.timezone,
    active: row.password_hash !== null,
  };
}
