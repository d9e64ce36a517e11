import { LRUCache } from "lru-cache";
import type { DashboardsTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { hashPassword, nowIso, sha256, verifyPassword } from "../../infra/security";
import { dashboardShared } from "../audit/events";
import { auditLog } from "../audit/record";
import type { Actor } from "../users/service";
import type { DashboardDeps } from "./deps";
import { EMBED_REFUSED, embedTokenValid, renderTokenValid } from "./embed-tokens";
import { languageOf } from "./presenter";
import { dashboardsRepo } from "./repo";

/** What a company without service's shared dashboards say. */
export const NO_SERVICE_VIEW = "This dashboard is not available: its owner's subscription has ended.";

/** Wrong dashboard passwords allowed per dashboard and address within the window. */
export const MAX_PASSWORD_FAILURES = 10;
export const PASSWORD_WINDOW_MS = 10 * 60_000;

/** A protected dashboard's 422 (docs/product.md §4), with the owner's site title for the password prompt. */
export class DashboardPasswordError extends AppError {
  constructor(
    message: string,
    readonly siteTitle: string,
    readonly language: string,
  ) {
    super("validation", undefined, { password: [message] });
  }

  /**
   * The usual 422 body plus the agency's site title, so the password prompt carries its white label,
   * and the dashboard's language, so it asks in the client's language.
   */
  protected override extra() {
    return { siteTitle: this.siteTitle, language: this.language };
  }
}

/**
 * Who may see a dashboard by its permalink: members, embed and render tokens, and the dashboard password
 * with its lockout. Every viewer-facing use case (the dashboard, its widgets' data, its PDF) asks here.
 */
export function viewerAccess({ ctx, repo, companies, load }: DashboardDeps) {
  // A public viewer sends the password with every widget request; argon2 once per (hash, attempt) is enough.
  const audit = auditLog(ctx);
  const verifiedPasswords = new LRUCache<string, true>({ max: 10_000, ttl: 10 * 60_000 });
  async function passwordMatches(passwordHash: string, attempt: string): Promise<boolean> {
    const key = sha256(`${passwordHash}\u0000${attempt}`);
    if (verifiedPasswords.has(key)) return true;
    const ok = await verifyPassword(passwordHash, attempt);
    if (ok) verifiedPasswords.set(key, true);
    return ok;
  }

  async function ownerSiteTitle(companyId: string): Promise<string> {
    const owner = await companies.load(companyId);
    // A company on its own domain never shows the product's name, its own name stands in.
    return owner.site_title || (owner.domain_verified_at ? owner.name : ctx.config.siteTitle);
  }

  /**
   * docs/product.md §4: a company without service (an expired trial, a canceled company past its
   * period) no longer shares its dashboards: public and embedded viewers get 402, and the view says so.
   */
  async function assertOwnerServed(companyId: string) {
    if (!(await companies.standing(companyId)).hasService) throw new AppError("payment_required", NO_SERVICE_VIEW);
  }

  /** An embedded view (or the server's own render): the token alone decides. */
  async function viewableByToken(row: DashboardsTable | undefined, embedToken: string) {
    const now = ctx.clock.now().getTime();
    const valid =
      row !== undefined &&
      (embedToken.startsWith("r")
        ? renderTokenValid(ctx.config.appKey, row, embedToken, now)
        : row.active === 1 && embedTokenValid(ctx.config.appKey, row, embedToken, now));
    if (!row || !valid) {
      throw AppError.forbidden(EMBED_REFUSED);
    }
    // Our own renders (reports, PDF exports) carry "r" tokens: the sending rules decide about them.
    if (!embedToken.startsWith("r")) await assertOwnerServed(row.company_id);
    // The owner signed this link, so it stands for the password (docs/decisions.md).
    return { row, isMember: false };
  }

  /**
   * Wrong dashboard passwords per (dashboard, address), counted in the shared rate-limit store:
   * every route and every process that takes a password spends this one budget.
   */
  async function assertPassword(row: DashboardsTable, passwordAttempt: string | null, clientAddress: string) {
    if (!row.password_hash) return;
    const attemptsKey = `dashboards.password:${row.id}|${clientAddress}`;
    if (passwordAttempt && (await ctx.rateLimits.peek(attemptsKey)) >= MAX_PASSWORD_FAILURES) {
      throw new AppError("too_many_requests", "Too many attempts. Please try again later.");
    }
    const ok = passwordAttempt !== null && (await passwordMatches(row.password_hash, passwordAttempt));
    if (!ok) {
      if (passwordAttempt) await ctx.rateLimits.hit(attemptsKey, PASSWORD_WINDOW_MS);
      // The prompt carries the agency's white label, never the dashboard's name.
      throw new DashboardPasswordError(
        passwordAttempt ? "The password is incorrect." : "This dashboard is password protected.",
        await ownerSiteTitle(row.company_id),
        languageOf(row.language),
      );
    }
  }

  /**
   * The dashboard behind a permalink if this viewer may see it: members of the owning company always;
   * anyone else only while it is active, its owner is served (402) and, when protected, with the right
   * password (docs/product.md §4: 422).
   */
  async function viewable(
    viewer: Actor | null,
    permalink: string,
    passwordAttempt: string | null,
    clientAddress: string,
    embedToken: string | null = null,
  ): Promise<{ row: DashboardsTable; isMember: boolean }> {
    const row = await repo.findByPermalink(permalink);
    // An embedded view is anonymous by design (third-party frames rarely carry our cookie): the token
    // alone decides, even for a member, so the owner sees exactly what the embedding site shows.
    if (embedToken !== null) return viewableByToken(row, embedToken);
    if (!row) throw AppError.notFound("Dashboard not found.");
    const isMember = viewer !== null && viewer.companyId === row.company_id;
    if (isMember) return { row, isMember };
    if (row.active !== 1) throw AppError.notFound("Dashboard not found.");
    await assertOwnerServed(row.company_id);
    await assertPassword(row, passwordAttempt, clientAddress);
    return { row, isMember };
  }

  return {
    viewable,
    ownerSiteTitle,
    useCases: {
      /** Sets or (with an empty password) clears the dashboard password. */
      async setPassword(actor: Actor, id: string, password: string | null): Promise<boolean> {
        const row = await load(actor, id);
        const patch = { password_hash: password ? await hashPassword(password) : null, updated_at: nowIso() };
        const action = password ? "dashboard.password_set" : "dashboard.password_removed";
        await audit.within(ctx.db, dashboardShared(action, row), (trx) =>
          dashboardsRepo(trx).update(actor.companyId, id, patch),
        );
        return password !== null;
      },
    },
  };
}

export type ViewerAccess = ReturnType<typeof viewerAccess>;
