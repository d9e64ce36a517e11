import type { DashboardsTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { hmac, newId, nowIso, safeEqual } from "../../infra/security";
import { dashboardShared } from "../audit/events";
import { auditLog } from "../audit/record";
import type { Actor } from "../users/service";
import type { DashboardDeps } from "./deps";
import { dashboardsRepo } from "./repo";

/** What an embedded view shows when its token is missing, forged, expired or revoked (403). */
export const EMBED_REFUSED = "This embed link has expired or was revoked.";

/**
 * The signed part of an embed link: `<expiry in unix seconds>.<HMAC>`. The MAC covers the dashboard,
 * its current permalink and the expiry, keyed by APP_KEY and the dashboard's embed secret: a new
 * permalink or a new secret makes every earlier token fail, with no list of issued links to keep.
 */
export function signEmbedToken(
  appKey: string,
  row: Pick<DashboardsTable, "id" | "permalink">,
  secret: string,
  exp: number,
) {
  return `${exp}.${hmac(`${appKey}\u0000${secret}`, `embed|${row.id}|${row.permalink}|${exp}`)}`;
}

/** Whether a token is a valid, unexpired signature for this dashboard as it is now. */
export function embedTokenValid(
  appKey: string,
  row: Pick<DashboardsTable, "id" | "permalink" | "embed_secret">,
  token: string,
  nowMs: number,
): boolean {
  if (!row.embed_secret) return false;
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return false;
  const exp = Number(match[1]);
  if (exp * 1000 <= nowMs) return false;
  return safeEqual(token, signEmbedToken(appKey, row, row.embed_secret, exp));
}

/** How long the headless browser's pass into a dashboard's print view lasts (one render, with retries). */
export const RENDER_TOKEN_TTL_S = 10 * 60;

/**
 * The pass the server gives its own headless browser to open a dashboard's print view: `r<expiry>.<HMAC>`
 * over the dashboard, its permalink and the expiry, keyed by APP_KEY alone. Like an embed token it stands
 * for the password (the server itself decided to render), but it needs no embed secret, lives minutes,
 * and never leaves the server (docs/decisions.md, "PDF export").
 */
export function signRenderToken(appKey: string, row: Pick<DashboardsTable, "id" | "permalink">, exp: number) {
  return `r${exp}.${hmac(appKey, `render|${row.id}|${row.permalink}|${exp}`)}`;
}

export function renderTokenValid(
  appKey: string,
  row: Pick<DashboardsTable, "id" | "permalink">,
  token: string,
  nowMs: number,
): boolean {
  const match = /^r(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return false;
  const exp = Number(match[1]);
  if (exp * 1000 <= nowMs) return false;
  return safeEqual(token, signRenderToken(appKey, row, exp));
}

/** Making and revoking a dashboard's embed links (docs/product.md §2 share menu). */
export function embedLinkUseCases({ ctx, repo, load }: DashboardDeps) {
  const audit = auditLog(ctx);
  return {
    /**
     * A signed embed link valid for `days` days (docs/product.md §2 share menu). The embed secret is made
     * on first use and kept, so links made earlier stay valid until it is replaced.
     */
    async createEmbedLink(actor: Actor, id: string, days: number): Promise<{ url: string; expiresAt: string }> {
      const row = await load(actor, id);
      let secret = row.embed_secret;
      if (!secret) {
        secret = newId(24);
        // Two first links made at once must not each write their own secret (one would be dead on arrival).
        if (!(await repo.setEmbedSecretIfUnset(actor.companyId, id, secret)))
          secret = (await load(actor, id)).embed_secret;
      }
      if (!secret) throw AppError.notFound("Dashboard not found.");
      const exp = Math.floor(ctx.clock.now().getTime() / 1000) + days * 86_400;
      const token = signEmbedToken(ctx.config.appKey, row, secret, exp);
      const base = ctx.config.appUrl.replace(/\/$/, "");
      await audit.record(ctx.db, dashboardShared("dashboard.embed_created", row, { days }));
      return {
        url: `${base}/dashboards/${encodeURIComponent(row.permalink)}/embed?token=${token}`,
        expiresAt: new Date(exp * 1000).toISOString(),
      };
    },

    /** Replaces the embed secret: every embed link made before stops working at once. */
    async revokeEmbedLinks(actor: Actor, id: string): Promise<void> {
      const row = await load(actor, id);
      await audit.within(ctx.db, dashboardShared("dashboard.embed_revoked", row), (trx) =>
        dashboardsRepo(trx).update(actor.companyId, id, { embed_secret: newId(24), updated_at: nowIso() }),
      );
    },
  };
}
