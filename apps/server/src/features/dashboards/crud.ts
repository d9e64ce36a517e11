import {
  DEFAULT_LANGUAGE,
  dashboardAllowance,
  EMPTY_DASHBOARD_STYLES,
  MESSAGE_CATALOGUE,
  type TDashboardCreate,
  type TDashboardListQuery,
  type TWidget,
} from "@app/core";
import type { Db } from "../../infra/db";
import type { DashboardsTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { newId, nowIso } from "../../infra/security";
import { dashboardShared } from "../audit/events";
import { auditLog } from "../audit/record";
import type { Actor } from "../users/service";
import type { DashboardDeps } from "./deps";
import { parseWidgets, presentListItem } from "./presenter";
import { dashboardsRepo } from "./repo";

/** What a company without service is told when creating a dashboard. */
export const NO_SERVICE_CREATE = "Your trial or subscription has ended. Subscribe to create dashboards.";

/** A member's dashboards: list, create (from a template), clone, archive, delete, new permalink. */
export function crudUseCases({ ctx, repo, companies, resolveTemplate, load }: DashboardDeps) {
  const audit = auditLog(ctx);
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
      const row = await load(actor, id);
      if (active) await assertAllowance(actor.companyId);
      const patch = { active: active ? 1 : 0, updated_at: nowIso() };
      await audit.within(ctx.db, dashboardShared(active ? "dashboard.restored" : "dashboard.archived", row), (trx) =>
        dashboardsRepo(trx).update(actor.companyId, id, patch),
      );
    },

    async remove(actor: Actor, id: string): Promise<void> {
      await load(actor, id);
      await repo.delete(actor.companyId, id);
    },

    async refreshPermalink(actor: Actor, id: string): Promise<string> {
      const row = await load(actor, id);
      const permalink = await uniquePermalink();
      await audit.within(ctx.db, dashboardShared("dashboard.permalink_refreshed", row), (trx) =>
        dashboardsRepo(trx).update(actor.companyId, id, { permalink, updated_at: nowIso() }),
      );
      return permalink;
    },
  };
}

/** A new dashboard row: empty, or a copy of `base`'s settings with the given widgets. */
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
    styles: base?.styles ?? JSON.stringify(EMPTY_DASHBOARD_STYLES),
    defaults: base?.defaults ?? "{}",
    widgets: JSON.stringify(widgets),
    hidden_date_selector: base?.hidden_date_selector ?? 0,
    footer: base?.footer ?? null,
    // A clone reads in its original's language; a new dashboard in the default.
    language: base?.language ?? DEFAULT_LANGUAGE,
    password_hash: null,
    embed_secret: null,
    locked_by: null,
    locked_at: null,
    created_by: actor.id,
    created_at: now,
    updated_at: now,
  };
}
