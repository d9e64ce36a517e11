import fs from "node:fs/promises";
import path from "node:path";
import type { AppContext } from "../context";
import { companiesRepo } from "../features/companies/repo";
import { usersRepo } from "../features/users/repo";
import { isUniqueViolation } from "../infra/errors";
import { hashPassword, newId, newToken, nowIso } from "../infra/security";

export const DEMO_EMAIL = "demo@reportz.local";

/** Where the demo login is kept for whoever started the server (readable by its user only). */
export function demoLoginFile(dataDir: string): string {
  return path.join(dataDir, "demo-login.txt");
}

/**
 * On an empty database (never in production) creates a demo company with an admin, so a fresh install
 * can be logged into at once. The password is random (a published one would be a known admin login on
 * any server started on a public address) unless DEMO_PASSWORD sets it; it is written to
 * `demoLoginFile`. Returns the login when it created one.
 */
export async function seedDemoAccount(
  ctx: AppContext,
): Promise<{ email: string; password: string; file: string } | null> {
  const companies = companiesRepo(ctx.db);
  if (Number((await companies.count()).count) > 0) return null;
  const password = ctx.config.demoPassword ?? newToken().slice(0, 20);
  const companyId = newId();
  const now = nowIso();
  const passwordHash = await hashPassword(password);
  // The company and its admin together: a company left without its admin would stop the seed for good
  // (it only runs on an empty database).
  // Several processes starting together on an empty database may all get here: the e-mail's unique
  // index lets one win; the others' transactions roll back and they leave the seeding to the winner.
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await companiesRepo(trx).insert({
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
        domain_cname: null,
        domain_verified_at: null,
        timezone: "UTC",
        created_at: now,
      });
      await usersRepo(trx).insert({
        id: newId(),
        company_id: companyId,
        name: "Demo Admin",
        email: DEMO_EMAIL,
        password_hash: passwordHash,
        role: "admin",
        creator: 1,
        avatar: null,
        terms_consent: 1,
        age_consent: 1,
        intro_passed: 1,
        timezone: "UTC",
        onboarding_flow: "dashboard",
        onboarding_step: 0,
        onboarding_source: null,
        created_at: now,
      });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return null;
  }
  const file = demoLoginFile(ctx.config.dataDir);
  await fs.mkdir(ctx.config.dataDir, { recursive: true });
  await fs.writeFile(file, `e-mail: ${DEMO_EMAIL}\npassword: ${password}\n`, { mode: 0o600 });
  // writeFile keeps the mode of a file that already exists; the login must not stay world-readable.
  await fs.chmod(file, 0o600);
  return { email: DEMO_EMAIL, password, file };
}
