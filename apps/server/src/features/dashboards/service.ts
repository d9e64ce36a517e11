import {
  dashboardAllowance,
  MESSAGE_CATALOGUE,
  type TAutomaticReport,
  type TDashboard,
  type TDashboardCreate,
  type TDashboardListQuery,
  type TDashboardSave,
  type TDashboardStyles,
  type TWidget,
  type TWidgetInstance,
  todayInTimezone,
} from "@app/core";
import type { Updateable } from "kysely";
import { LRUCache } from "lru-cache";
import { widgetType } from "../../connectors";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import type { DashboardsTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { sanitizeUserHtml } from "../../infra/html";
import { hashPassword, hmac, newId, nowIso, safeEqual, sha256, verifyPassword } from "../../infra/security";
import { type Storage, storeImage } from "../../infra/storage";
import type { CompaniesService } from "../companies/service";
import type { Actor } from "../users/service";
import { EMPTY_STYLES, parseWidgets, presentDashboard, presentListItem, withOwnImages } from "./presenter";
import { dashboardsRepo } from "./repo";

/** What a company without service is told when creating a dashboard, and what its shared dashboards say. */
export const NO_SERVICE_CREATE = "Your trial or subscription has ended. Subscribe to create dashboards.";
export const NO_SERVICE_VIEW = "This dashboard is not available: its owner's subscription has ended.";

/** A dashboard as the PDF export and the report sender see it, with the pass to its print view. */
export interface ExportTarget {
  companyId: string;
  dashboardId: string;
  permalink: string;
  name: string;
  /** Changes whenever the dashboard is saved. */
  version: string;
  widgetCount: number;
  /** For the server's headless browser only (signRenderToken). */
  renderToken: string;
}

/** A public, unprotected dashboard's header as its HTML paints it (see page-data routes). */
export interface PublicHeader {
  name: string;
  styles: TDashboardStyles;
  hiddenDateSelector: boolean;
}

/** A lock without a heartbeat for this long is stale: its holder closed the tab or lost the network. */
export const LOCK_TIMEOUT_MS = 90_000;
/** Wrong dashboard passwords allowed per dashboard and address within the window. */
export const MAX_PASSWORD_FAILURES = 10;
export const PASSWORD_WINDOW_MS = 10 * 60_000;

/** Image parts of the multipart save (docs/product.md §7: snake case) and the style each one fills. */
const STYLE_FILES: Record<string, "logoImage" | "backgroundImage" | "clientImage"> = {
  logo_image: "logoImage",
  background_image: "backgroundImage",
  client_image: "clientImage",
};

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

function renderTokenValid(
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

/** Widgets of a template, with their instances pointed at a source of the company. */
export type TemplateResolver = (companyId: string, key: string) => Promise<TWidget[] | null>;

/** The automatic reports of a dashboard (the reports feature keeps them). */
export type DashboardReports = (companyId: string, dashboardId: string) => Promise<TAutomaticReport[]>;

/** A protected dashboard's 422 (docs/product.md §4), with the owner's site title for the password prompt. */
export class DashboardPasswordError extends AppError {
  constructor(
    message: string,
    readonly siteTitle: string,
  ) {
    super("validation", undefined, { password: [message] });
  }

  /** The usual 422 body plus the agency's site title, so the password prompt carries its white label. */
  protected override extra() {
    return { siteTitle: this.siteTitle };
  }
}

export function dashboardsService(
  ctx: AppContext,
  storage: Storage,
  companies: CompaniesService,
  resolveTemplate: TemplateResolver,
  reportsOf: DashboardReports,
) {
  const repo = dashboardsRepo(ctx.db);
  // A public viewer sends the password with every widget request; argon2 once per (hash, attempt) is enough.
  const verifiedPasswords = new LRUCache<string, true>({ max: 10_000, ttl: 10 * 60_000 });
  async function passwordMatches(passwordHash: string, attempt: string): Promise<boolean> {
    const key = sha256(`${passwordHash}\u0000${attempt}`);
    if (verifiedPasswords.has(key)) return true;
    const ok = await verifyPassword(passwordHash, attempt);
    if (ok) verifiedPasswords.set(key, true);
    return ok;
  }

  // A shared dashboard's page asks for each widget's data separately, and each request reads the row (access
  // is checked every time) but its widget list only changes when the dashboard is saved: the list is parsed
  // once per saved text and kept frozen, so no reader can change what the next one gets.
  const parsedWidgets = new LRUCache<string, { text: string; widgets: readonly TWidget[] }>({
    maxSize: 32 * 1024 * 1024,
    sizeCalculation: (entry) => Math.max(1, entry.text.length * 2),
  });
  function exportTargetOf(row: DashboardsTable): ExportTarget {
    const exp = Math.floor(ctx.clock.now().getTime() / 1000) + RENDER_TOKEN_TTL_S;
    return {
      companyId: row.company_id,
      dashboardId: row.id,
      permalink: row.permalink,
      name: row.name,
      version: row.updated_at,
      widgetCount: widgetsOf(row).length,
      renderToken: signRenderToken(ctx.config.appKey, row, exp),
    };
  }

  function widgetsOf(row: Pick<DashboardsTable, "id" | "widgets">): readonly TWidget[] {
    const kept = parsedWidgets.get(row.id);
    if (kept !== undefined && kept.text === row.widgets) return kept.widgets;
    const widgets = deepFreeze(parseWidgets(row));
    parsedWidgets.set(row.id, { text: row.widgets, widgets });
    return widgets;
  }

  const lockHolder = (row: DashboardsTable): string | null =>
    row.locked_by && row.locked_at && Date.now() - Date.parse(row.locked_at) < LOCK_TIMEOUT_MS ? row.locked_by : null;

  async function load(actor: Actor, id: string): Promise<DashboardsTable> {
    const row = await repo.findById(actor.companyId, id);
    if (!row) throw AppError.notFound("Dashboard not found.");
    return row;
  }

  /** docs/product.md §9: a new dashboard needs dashboardsCount below services.dashboards + bonusDashboards (else banner 121). */
  async function assertAllowance(companyId: string, db: Db = ctx.db, known?: number) {
    // Read outside the insert's transaction (its caller checks first): SQLite has one writer connection.
    if (db === ctx.db) await assertServedForCreate(companyId);
    const allowance = known ?? (await allowanceOf(companyId));
    if ((await dashboardsRepo(db).countActive(companyId)) >= allowance) {
      const message = MESSAGE_CATALOGUE[121];
      throw AppError.validation(
        {
          general: [
            "Every dashboard of your plan is in use. Update your subscription to raise the number of dashboards.",
          ],
        },
        String(message.title),
      );
    }
  }

  /** An expired trial or a canceled company past its period creates no dashboards (docs/product.md §4). */
  async function assertServedForCreate(companyId: string) {
    if (!(await companies.standing(companyId)).hasService) {
      throw AppError.validation({ general: [NO_SERVICE_CREATE] }, "Subscription Required");
    }
  }

  async function allowanceOf(companyId: string): Promise<number> {
    const company = await companies.load(companyId);
    return dashboardAllowance({
      dashboards: company.services_dashboards,
      bonusDashboards: company.services_bonus_dashboards,
    });
  }

  /**
   * Inserts a new dashboard if the plan still allows one: the count and the insert run in one
   * transaction, so (on SQLite, whose writers take turns) two requests cannot both take the last slot.
   */
  async function insertWithinAllowance(row: DashboardsTable): Promise<void> {
    await assertServedForCreate(row.company_id);
    const allowance = await allowanceOf(row.company_id);
    await ctx.db.transaction().execute(async (trx) => {
      await assertAllowance(row.company_id, trx, allowance);
      await dashboardsRepo(trx).insert(row);
    });
  }

  async function uniquePermalink(): Promise<string> {
    for (;;) {
      const permalink = newId(9);
      if (!(await repo.findByPermalink(permalink))) return permalink;
    }
  }

  async function assertOwnSources(companyId: string, widgets: TWidget[]) {
    const ids = new Set<string>();
    for (const widget of widgets) {
      if (widget.nature !== "interactive") continue;
      for (const instance of widget.instances) if (instance.sourceId) ids.add(instance.sourceId);
    }
    if ((await repo.countOwnSources(companyId, [...ids])) !== ids.size) {
      throw AppError.validation({ widgets: ["A widget uses a source that does not exist."] });
    }
  }

  /**
   * Style images must be the company's own uploads (the contract already holds them to `/files/…`):
   * another company's file or a made-up name is a 422 on its field. Only changed values are looked
   * up on disk, so the debounced saves of an editing session do not stat unchanged images.
   */
  async function assertOwnImages(companyId: string, input: Partial<TDashboardStyles>, stored: TDashboardStyles) {
    const errors: Record<string, string[]> = {};
    for (const [field, key] of Object.entries(STYLE_FILES)) {
      const value = input[key];
      if (value === undefined || value === null || value === stored[key]) continue;
      const own = value.startsWith(`/files/${companyId}/`) && (await storage.read(value)) !== null;
      if (!own)
        errors[`styles.${key}`] = [`The ${field.replace("_", " ")} must be an image uploaded to this dashboard.`];
    }
    if (Object.keys(errors).length > 0) throw AppError.validation(errors);
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
  ) {
    const row = await repo.findByPermalink(permalink);
    // An embedded view is anonymous by design (third-party frames rarely carry our cookie): the token
    // alone decides, even for a member, so the owner sees exactly what the embedding site shows.
    if (embedToken !== null) {
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
    if (!row) throw AppError.notFound("Dashboard not found.");
    const isMember = viewer !== null && viewer.companyId === row.company_id;
    if (isMember) return { row, isMember };
    if (row.active !== 1) throw AppError.notFound("Dashboard not found.");
    await assertOwnerServed(row.company_id);
    if (row.password_hash) {
      // Wrong dashboard passwords per (dashboard, address), counted in the shared rate-limit store:
      // every route and every process that takes a password spends this one budget.
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
        );
      }
    }
    return { row, isMember };
  }

  function newRow(
    actor: Actor,
    name: string,
    widgets: TWidget[],
    permalink: string,
    base?: DashboardsTable,
  ): DashboardsTable {
    const now = nowIso();
    return {
      id: newId(),
      company_id: actor.companyId,
      permalink,
      name,
      active: 1,
      range_type: base?.range_type ?? "last_30_days",
      start_date: base?.start_date ?? null,
      end_date: base?.end_date ?? null,
      compare_start_date: base?.compare_start_date ?? null,
      compare_end_date: base?.compare_end_date ?? null,
      styles: base?.styles ?? JSON.stringify(EMPTY_STYLES),
      defaults: base?.defaults ?? "{}",
      widgets: JSON.stringify(widgets),
      hidden_date_selector: base?.hidden_date_selector ?? 0,
      footer: base?.footer ?? null,
      password_hash: null,
      embed_secret: null,
      locked_by: null,
      locked_at: null,
      created_by: actor.id,
      created_at: now,
      updated_at: now,
    };
  }

  return {
    /** Counts dashboards that use the allowance (archived ones do not). */
    countActive: (companyId: string) => repo.countActive(companyId),

    async list(actor: Actor, query: TDashboardListQuery) {
      const active = query.active === undefined ? undefined : query.active === "true";
      const offset = (query.page - 1) * query.perPage;
      const { rows, total } = await repo.list(actor.companyId, {
        search: query.search,
        active,
        offset,
        limit: query.perPage,
      });
      return {
        data: rows.map(presentListItem),
        meta: {
          currentPage: query.page,
          perPage: query.perPage,
          total,
          lastPage: Math.max(1, Math.ceil(total / query.perPage)),
        },
      };
    },

    async create(actor: Actor, input: TDashboardCreate): Promise<string> {
      await assertAllowance(actor.companyId);
      let widgets: TWidget[] = [];
      if (input.template) {
        const resolved = await resolveTemplate(actor.companyId, input.template);
        if (!resolved) throw AppError.validation({ template: ["The selected template does not exist."] });
        widgets = resolved;
      }
      const row = newRow(actor, input.name, widgets, await uniquePermalink());
      await insertWithinAllowance(row);
      return row.permalink;
    },

    async clone(actor: Actor, id: string): Promise<string> {
      const source = await load(actor, id);
      await assertAllowance(actor.companyId);
      const widgets = parseWidgets(source).map((w) => ({ ...w, id: newId() }));
      const row = newRow(actor, `${source.name} (copy)`.slice(0, 120), widgets, await uniquePermalink(), source);
      await insertWithinAllowance(row);
      return row.permalink;
    },

    async setActive(actor: Actor, id: string, active: boolean): Promise<void> {
      await load(actor, id);
      if (active) await assertAllowance(actor.companyId);
      await repo.update(actor.companyId, id, { active: active ? 1 : 0, updated_at: nowIso() });
    },

    async remove(actor: Actor, id: string): Promise<void> {
      await load(actor, id);
      await repo.delete(actor.companyId, id);
    },

    async refreshPermalink(actor: Actor, id: string): Promise<string> {
      await load(actor, id);
      const permalink = await uniquePermalink();
      await repo.update(actor.companyId, id, { permalink, updated_at: nowIso() });
      return permalink;
    },

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
      return {
        url: `${base}/dashboards/${encodeURIComponent(row.permalink)}/embed?token=${token}`,
        expiresAt: new Date(exp * 1000).toISOString(),
      };
    },

    /** Replaces the embed secret: every embed link made before stops working at once. */
    async revokeEmbedLinks(actor: Actor, id: string): Promise<void> {
      await load(actor, id);
      await repo.update(actor.companyId, id, { embed_secret: newId(24), updated_at: nowIso() });
    },

    /** Sets or (with an empty password) clears the dashboard password. */
    async setPassword(actor: Actor, id: string, password: string | null): Promise<boolean> {
      await load(actor, id);
      await repo.update(actor.companyId, id, {
        password_hash: password ? await hashPassword(password) : null,
        updated_at: nowIso(),
      });
      return password !== null;
    },

    /**
     * GET /api/dashboards/{permalink}. Members of the owning company get the editable dashboard;
     * anyone else is a public viewer (docs/product.md §4: x-public) and needs the password when one is set (422).
     */
    async show(
      viewer: Actor | null,
      permalink: string,
      timezone: string,
      passwordAttempt: string | null,
      clientAddress = "",
      embedToken: string | null = null,
    ): Promise<{ dashboard: TDashboard; isPublic: boolean }> {
      const { row, isMember } = await viewable(viewer, permalink, passwordAttempt, clientAddress, embedToken);
      const today = todayInTimezone(timezone);
      if (isMember) {
        const reports = await reportsOf(row.company_id, row.id);
        return { dashboard: presentDashboard(row, today, lockHolder(row), reports), isPublic: false };
      }
      // A client sees the agency's white label, and no user ids (the lock holder is an agency member)
      // nor the automatic reports (their recipients are the agency's contacts).
      const siteTitle = await ownerSiteTitle(row.company_id);
      return { dashboard: { ...presentDashboard(row, today, null, []), siteTitle }, isPublic: true };
    },

    /** The company owning the dashboard at this permalink, or null (custom domain routing). */
    async ownerOf(permalink: string): Promise<string | null> {
      return (await repo.findByPermalink(permalink))?.company_id ?? null;
    },

    /**
     * What the tab of a dashboard page shows before the app loads (white label): its name, and for a
     * public viewer the owning company's site title (null: the viewer's own page title applies). A
     * protected dashboard keeps its name until the password is given; a dashboard this viewer could
     * not open names nothing.
     */
    async pageTitle(
      viewerCompanyId: string | null,
      permalink: string,
    ): Promise<{ name: string | null; siteTitle: string | null; publicHeader: PublicHeader | null }> {
      const row = await repo.findByPermalink(permalink);
      if (!row) return { name: null, siteTitle: null, publicHeader: null };
      if (viewerCompanyId === row.company_id) return { name: row.name, siteTitle: null, publicHeader: null };
      if (row.active !== 1) return { name: null, siteTitle: null, publicHeader: null };
      const siteTitle = await ownerSiteTitle(row.company_id);
      if (row.password_hash) return { name: null, siteTitle, publicHeader: null };
      // What a public viewer's page paints before its scripts run: only what `show` would give them.
      const styles = withOwnImages(row.company_id, {
        ...EMPTY_STYLES,
        ...(JSON.parse(row.styles) as Partial<TDashboardStyles>),
      });
      const publicHeader = { name: row.name, styles, hiddenDateSelector: row.hidden_date_selector === 1 };
      return { name: row.name, siteTitle, publicHeader };
    },

    /**
     * The instances of a saved widget for a viewer of the dashboard (same access rule as `show`),
     * with the owning company, so the data path queries the owner's sources.
     */
    async widgetForViewer(
      viewer: Actor | null,
      permalink: string,
      widgetId: string,
      passwordAttempt: string | null,
      clientAddress = "",
      embedToken: string | null = null,
    ): Promise<{ companyId: string; instances: readonly TWidgetInstance[] }> {
      // One read of the row per widget request; only the asked widget is looked at.
      const { row } = await viewable(viewer, permalink, passwordAttempt, clientAddress, embedToken);
      const widget = widgetsOf(row).find((w) => w.id === widgetId);
      if (widget?.nature !== "interactive") throw AppError.notFound("Widget not found.");
      return { companyId: row.company_id, instances: widget.instances };
    },

    /**
     * A dashboard's saved widgets and styles for a viewer who may see it (the same rule as `show`), with
     * the owning company, whose sources the data path queries: what its insights are computed from.
     */
    async widgetsForViewer(
      viewer: Actor | null,
      permalink: string,
      passwordAttempt: string | null,
      clientAddress = "",
      embedToken: string | null = null,
    ): Promise<{ companyId: string; widgets: readonly TWidget[]; styles: TDashboardStyles }> {
      const { row } = await viewable(viewer, permalink, passwordAttempt, clientAddress, embedToken);
      const styles = { ...EMPTY_STYLES, ...(JSON.parse(row.styles) as Partial<TDashboardStyles>) };
      return { companyId: row.company_id, widgets: widgetsOf(row), styles };
    },

    /**
     * What a PDF export of this permalink needs, for a viewer who may see it (the same rule as `show`:
     * members, or anyone with the password or an embed token): which dashboard, of which company, as saved
     * now (its `updated_at` is part of the export's key, so an edit makes a new PDF).
     */
    async exportTarget(
      viewer: Actor | null,
      permalink: string,
      passwordAttempt: string | null,
      clientAddress = "",
      embedToken: string | null = null,
    ): Promise<ExportTarget> {
      const { row } = await viewable(viewer, permalink, passwordAttempt, clientAddress, embedToken);
      return exportTargetOf(row);
    },

    /** The same for the server's own senders (automatic reports): a dashboard of the company by id. */
    async exportTargetById(companyId: string, dashboardId: string): Promise<ExportTarget> {
      const row = await repo.findById(companyId, dashboardId);
      if (!row) throw AppError.notFound("Dashboard not found.");
      return exportTargetOf(row);
    },

    /** The same for the server's own senders (a report's e-mail): a dashboard of the company by id. */
    async widgetsAndStylesById(
      companyId: string,
      dashboardId: string,
    ): Promise<{ widgets: readonly TWidget[]; styles: TDashboardStyles }> {
      const row = await repo.findById(companyId, dashboardId);
      if (!row) throw AppError.notFound("Dashboard not found.");
      const styles = { ...EMPTY_STYLES, ...(JSON.parse(row.styles) as Partial<TDashboardStyles>) };
      return { widgets: widgetsOf(row), styles };
    },

    /** A dashboard's widgets as saved, for the server's own work on it (pre-warming a report's data). */
    async widgetsById(companyId: string, dashboardId: string): Promise<readonly TWidget[]> {
      const row = await repo.findById(companyId, dashboardId);
      return row ? widgetsOf(row) : [];
    },

    /** The multipart save of docs/product.md §7; only the lock holder may save while the dashboard is locked. */
    async save(
      actor: Actor,
      id: string,
      input: TDashboardSave,
      files: Record<string, Buffer>,
    ): Promise<TDashboardStyles> {
      const row = await load(actor, id);
      const holder = lockHolder(row);
      if (holder && holder !== actor.id) throw AppError.forbidden("This dashboard is being edited by another user.");
      if (input.widgets) await assertOwnSources(actor.companyId, input.widgets);
      const stored = { ...EMPTY_STYLES, ...(JSON.parse(row.styles) as Partial<TDashboardStyles>) };
      if (input.styles) await assertOwnImages(actor.companyId, input.styles, stored);
      const styles: TDashboardStyles = withOwnImages(actor.companyId, { ...stored, ...input.styles });
      for (const [field, style] of Object.entries(STYLE_FILES)) {
        const bytes = files[field];
        if (bytes) styles[style] = await storeImage(storage, actor.companyId, bytes, field);
      }
      const patch: Updateable<DashboardsTable> = {
        styles: JSON.stringify(styles),
        updated_at: nowIso(),
        ...(input.widgets && { widgets: JSON.stringify(input.widgets.map(cleanWidgetHtml).map(markLive)) }),
        ...(input.name !== undefined && { name: input.name }),
        ...(input.hidden_date_selector !== undefined && { hidden_date_selector: input.hidden_date_selector ? 1 : 0 }),
        ...(input.footer !== undefined && { footer: sanitizeUserHtml(input.footer) }),
        ...(input.range_type !== undefined && { range_type: input.range_type }),
        ...(input.start !== undefined && { start_date: input.start, end_date: input.end ?? null }),
        ...(input.compare_start !== undefined && {
          compare_start_date: input.compare_start ?? null,
          compare_end_date: input.compare_end ?? null,
        }),
      };
      const staleBefore = new Date(Date.now() - LOCK_TIMEOUT_MS).toISOString();
      if (!(await repo.updateAsEditor(actor.companyId, id, actor.id, staleBefore, patch))) {
        throw AppError.forbidden("This dashboard is being edited by another user.");
      }
      return styles;
    },

    /** Edit lock (docs/product.md §4): take or refresh it, or release it. Refusal names the holder. */
    async lock(actor: Actor, id: string, action: "lock" | "unlock"): Promise<string | null> {
      await load(actor, id);
      if (action === "unlock") {
        await repo.unlock(actor.companyId, id, actor.id);
        return null;
      }
      const now = new Date();
      const staleBefore = new Date(now.getTime() - LOCK_TIMEOUT_MS).toISOString();
      if (!(await repo.tryLock(actor.companyId, id, actor.id, now.toISOString(), staleBefore))) {
        throw new AppError(
          "conflict",
          "Another user is editing this dashboard. Edit mode is available when they finish.",
        );
      }
      return actor.id;
    },
  };
}

export type DashboardsService = ReturnType<typeof dashboardsService>;

/** Text-card, description and note HTML of a widget, reduced to presentational markup. */
/**
 * A widget over live data (a realtime widget type, e.g. the Demo's active users) is a realtime widget:
 * the realtime view refreshes it and shows when it was updated (docs/product.md §2). Decided here from
 * the connectors' own type configs, so no client has to know which types are live.
 */
function markLive(widget: TWidget): TWidget {
  if (widget.nature !== "interactive" || widget.realTime) return widget;
  const live = widget.instances.some((instance) => widgetType(instance.type)?.config.realtime === true);
  return live ? { ...widget, realTime: true } : widget;
}

function cleanWidgetHtml(widget: TWidget): TWidget {
  const description = widget.description === null ? null : sanitizeUserHtml(widget.description);
  if (widget.nature !== "passive") return { ...widget, description };
  const { inputs } = widget;
  return {
    ...widget,
    description,
    inputs: {
      ...inputs,
      ...(inputs.description !== undefined && { description: sanitizeUserHtml(inputs.description) }),
      ...(inputs.articles && {
        articles: inputs.articles.map((article) => ({
          ...article,
          content: sanitizeUserHtml(article.content),
          description: sanitizeUserHtml(article.description),
        })),
      }),
    },
  };
}

/** Freezes a parsed JSON value all the way down (it holds only plain objects, lists and primitives). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
