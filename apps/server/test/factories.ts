import {
  type TAutomaticReport,
  type TDashboardSave,
  type TSource,
  type TWidget,
  ZAutomaticReportInput,
} from "@app/core";
import type { AppContext } from "../src/context";
import { type AuthState, authService } from "../src/features/auth/service";
import { reportsService } from "../src/features/automatic-reports/service";
import { companiesRepo } from "../src/features/companies/repo";
import { companiesService } from "../src/features/companies/service";
import { dashboardsRepo } from "../src/features/dashboards/repo";
import { dashboardsService } from "../src/features/dashboards/service";
import { filesService } from "../src/features/files/service";
import { sourcesService } from "../src/features/sources/service";
import { templateResolver } from "../src/features/sources/template-instances";
import { usersRepo } from "../src/features/users/repo";
import type { Actor } from "../src/features/users/service";
import type { CompaniesTable, DashboardsTable, UsersTable } from "../src/infra/db/schema";
import { SESSION_COOKIE } from "../src/infra/http";
import { hashPassword, newId, nowIso } from "../src/infra/security";
import { createSessionCache } from "../src/infra/session-cache";
import type { TestClient, TestEnv } from "./harness";

/**
 * Row factories: a suite's setup writes its rows through the features' own services and repos instead of
 * registering over HTTP for every case. Registration, invitations and login keep their HTTP tests; every
 * other suite starts from rows built here, so a case pays for one INSERT per row, not for four requests
 * and an argon2 hash.
 */

/** Either the app context or a test environment holding one. */
type Target = AppContext | { ctx: AppContext };
const contextOf = (target: Target): AppContext => ("ctx" in target ? target.ctx : target);

/** The password every built user has unless told otherwise (the same one `TestClient.register` uses). */
export const DEFAULT_PASSWORD = "secret-pass-1";

// argon2 is slow on purpose; one hash of the default password serves every built user of the process
// (each hash verifies its own password, whoever's row holds it).
const hashes = new Map<string, Promise<string>>();
function passwordHash(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

/** The services the factories write through, wired as app.ts wires them (without the HTTP layer). */
function wire(ctx: AppContext) {
  const companies = companiesService(ctx, ctx.storage);
  const sources = sourcesService(ctx, filesService(ctx, ctx.storage));
  // Factories create reports; they never send one (the app's own delivery service does).
  const reports = reportsService(ctx, companies, () => {
    throw new Error("factories do not send reports");
  });
  return {
    companies,
    sources,
    reports,
    // A built dashboard is saved once, new: no goal of it is ever taken away, so no alert rule goes with one.
    dashboards: dashboardsService(ctx, ctx.storage, companies, templateResolver(sources), reports.forDashboard, () => {
      throw new Error("factories remove no goals");
    }),
    auth: authService(ctx, companies, createSessionCache<AuthState>()),
  };
}

// Once per app: the services allocate their caches up front, which costs more than the rows themselves.
const wired = new WeakMap<AppContext, ReturnType<typeof wire>>();
function services(ctx: AppContext) {
  let result = wired.get(ctx);
  if (!result) {
    result = wire(ctx);
    wired.set(ctx, result);
  }
  return result;
}

const unique = (prefix: string) => `${prefix}-${newId(10).toLowerCase()}`;

export interface CompanyOverrides extends Partial<Omit<CompaniesTable, "id">> {
  /** Billing interval of the trial's plan, in months (registration's `interval`). */
  interval?: number;
}

/** A company in its trial, as registration creates it; `overrides` then change any column. */
export async function buildCompany(target: Target, overrides: CompanyOverrides = {}): Promise<CompaniesTable> {
  const ctx = contextOf(target);
  const { interval = 1, ...columns } = overrides;
  const id = newId();
  await services(ctx).companies.createInTrial({
    id,
    name: columns.name ?? `Company ${unique("c")}`,
    dashboards: columns.services_dashboards ?? 25,
    timezone: columns.timezone ?? "UTC",
    interval,
  });
  const repo = companiesRepo(ctx.db);
  await repo.update(id, columns);
  return (await repo.find(id)) as CompaniesTable;
}

export interface UserOptions extends Partial<Omit<UsersTable, "id" | "company_id" | "password_hash">> {
  company: Pick<CompaniesTable, "id">;
  /** `admin` (default) or `user`. */
  role?: string;
  /** Plain password; null builds an invited user who has not set one yet. */
  password?: string | null;
}

export type BuiltUser = UsersTable & { password: string | null };

/** A user of `company` who has passed the intro and given consent (as if invited and joined). */
export async function buildUser(target: Target, options: UserOptions): Promise<BuiltUser> {
  const ctx = contextOf(target);
  const { company, role = "admin", password = DEFAULT_PASSWORD, ...columns } = options;
  const row: UsersTable = {
    id: newId(),
    company_id: company.id,
    name: "Uma User",
    email: `${unique(role)}@example.com`,
    password_hash: password === null ? null : await passwordHash(password),
    role,
    creator: 0,
    avatar: null,
    terms_consent: 1,
    age_consent: 1,
    intro_passed: 1,
    timezone: "UTC",
    onboarding_flow: "agency",
    onboarding_step: 0,
    onboarding_source: null,
    created_at: nowIso(),
    ...columns,
    ...(columns.email !== undefined && { email: columns.email.toLowerCase() }),
  };
  await usersRepo(ctx.db).insert(row);
  return { ...row, password };
}

/**
 * A client signed in as `user`: a session row made by the auth service's own `startSession` (the one
 * login and registration use) and its cookie, then page data as the SPA loads it.
 */
export async function signIn(env: TestEnv, user: UsersTable): Promise<TestClient> {
  const token = await services(env.ctx).auth.startSession(user);
  const client = env.client();
  client.setCookie(SESSION_COOKIE, token);
  await client.pageData();
  return client;
}

export interface Member {
  client: TestClient;
  user: BuiltUser;
  email: string;
  password: string;
}

/** A signed-in user of `company` (default role `user`): what `inviteAndJoin` gave, without the e-mail round trip. */
export async function buildMember(env: TestEnv, options: UserOptions): Promise<Member> {
  const user = await buildUser(env, { role: "user", name: "Mia Member", ...options });
  return { client: await signIn(env, user), user, email: user.email, password: String(user.password) };
}

export interface Owner extends Member {
  company: CompaniesTable;
}

/**
 * A new company with its creator admin, signed in past the intro: what `signUpAndPassIntro` gave, from rows.
 * `company.services_dashboards` sets the plan's dashboards (registration's `dashboards`).
 */
export async function buildOwner(
  env: TestEnv,
  options: { company?: CompanyOverrides; user?: Omit<UserOptions, "company"> } = {},
): Promise<Owner> {
  const company = await buildCompany(env, options.company);
  const user = await buildUser(env, { name: "Olivia Owner", creator: 1, ...options.user, company });
  return { client: await signIn(env, user), user, company, email: user.email, password: String(user.password) };
}

const actorOf = (company: Pick<CompaniesTable, "id">, user?: Pick<UsersTable, "id" | "role">): Actor => ({
  id: user?.id ?? "system",
  companyId: company.id,
  roleName: user?.role ?? "admin",
});

export interface DashboardOptions {
  company: Pick<CompaniesTable, "id">;
  /** The creator (default: none, as a system-made dashboard). */
  user?: Pick<UsersTable, "id" | "role">;
  name?: string;
  /** A template key: its widgets point at the company's Demo source (connected if needed). */
  template?: string;
  widgets?: TWidget[];
  /** Any other field of the dashboard save (styles, range, footer...). */
  save?: Omit<TDashboardSave, "widgets">;
  password?: string;
  active?: boolean;
}

/** A dashboard created and saved through the dashboards service (allowance, permalink, widget checks). */
export async function buildDashboard(target: Target, options: DashboardOptions): Promise<DashboardsTable> {
  const ctx = contextOf(target);
  const { dashboards } = services(ctx);
  const actor = actorOf(options.company, options.user);
  const permalink = await dashboards.create(actor, {
    name: options.name ?? `Dashboard ${unique("d")}`,
    ...(options.template !== undefined && { template: options.template }),
  });
  const repo = dashboardsRepo(ctx.db);
  const { id } = (await repo.findByPermalink(permalink)) as DashboardsTable;
  if (options.widgets || options.save) {
    await dashboards.save(actor, id, { ...options.save, ...(options.widgets && { widgets: options.widgets }) }, {});
  }
  if (options.password !== undefined) await dashboards.setPassword(actor, id, options.password);
  if (options.active === false) await dashboards.setActive(actor, id, false);
  return (await repo.findByPermalink(permalink)) as DashboardsTable;
}

export interface SourceOptions {
  company: Pick<CompaniesTable, "id">;
  /** Connector key (default `demo`). */
  connector?: string;
  /** The create form's other fields (account, token, site...). */
  fields?: Record<string, string>;
  /** For upload connectors (csv): the file. */
  file?: { filename: string; mimetype: string; data: Buffer };
}

/** A source connected through the sources service, as `POST /api/sources` would. */
export async function buildSource(target: Target, options: SourceOptions): Promise<TSource> {
  const { sources } = services(contextOf(target));
  return sources.create(actorOf(options.company), {
    fields: { name: options.connector ?? "demo", ...options.fields },
    files: options.file ? { file: options.file } : {},
  });
}

export interface ReportOptions {
  company: Pick<CompaniesTable, "id">;
  dashboard: Pick<DashboardsTable, "id">;
  /** The author (default: a system actor of the company). */
  user?: Pick<UsersTable, "id" | "role">;
  /** Any field of the report payload (docs/product.md §3); the contract fills in the rest as a request would. */
  input?: Record<string, unknown>;
}

/** An automatic report made through the reports service with the payload's defaults, as POST would. */
export async function buildReport(target: Target, options: ReportOptions): Promise<TAutomaticReport> {
  const { reports } = services(contextOf(target));
  const input = ZAutomaticReportInput.parse({
    dashboard_id: options.dashboard.id,
    recipients: "client@example.com",
    ...options.input,
  });
  return reports.create(actorOf(options.company, options.user), input, "UTC");
}
