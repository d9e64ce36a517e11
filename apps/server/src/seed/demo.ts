import type { AppContext } from "../context";
import { companiesRepo } from "../features/companies/repo";
import { usersRepo } from "../features/users/repo";
import { hashPassword, newId, nowIso } from "../infra/security";

export const DEMO_EMAIL = "demo@reportz.local";
export const DEMO_PASSWORD = "demo-password";

/**
 * On an empty database (never in production) creates a demo company with an admin,
 * so a fresh install can be logged into at once. Returns the login when it created one.
 */
export async function seedDemoAccount(ctx: AppContext): Promise<{ email: string; password: string } | null> {
  const companies = companiesRepo(ctx.db);
  if (Number((await companies.count()).count) > 0) return null;
  const companyId = newId();
  const now = nowIso();
  await companies.insert({
    id: companyId,
    name: "Demo Agency",
    domain: "demo-agency.example",
    logo: null,
    phone: null,
    site_title: null,
    state: "trial",
    expires_at: new Date(Date.now() + 14 * 86400_000).toISOString(),
    services_dashboards: 25,
    services_bonus_dashboards: 0,
    subscription_id: null,
    subscription_interval: null,
    discount: 0,
    cancellation: null,
    created_at: now,
  });
  await usersRepo(ctx.db).insert({
    id: newId(),
    company_id: companyId,
    name: "Demo Admin",
    email: DEMO_EMAIL,
    password_hash: await hashPassword(DEMO_PASSWORD),
    role: "admin",
    creator: 1,
    avatar: null,
    terms_consent: 1,
    age_consent: 1,
    intro_passed: 1,
    timezone: "UTC",
    onboarding_flow: "dashboard",
    onboarding_step: 0,
    created_at: now,
  });
  return { email: DEMO_EMAIL, password: DEMO_PASSWORD };
}
