import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import type { Storage } from "../../infra/storage";
import type { CompaniesService } from "../companies/service";
import type { Actor } from "../users/service";
import { crudUseCases } from "./crud";
import type { DashboardDeps, DashboardReports, GoalAlertsRemover, TemplateResolver } from "./deps";
import { editLockUseCases } from "./edit-lock";
import { embedLinkUseCases } from "./embed-tokens";
import { exportTargetUseCases } from "./export-targets";
import { dashboardsRepo } from "./repo";
import { saveUseCase } from "./save";
import { viewerAccess } from "./viewer-access";
import { viewingUseCases } from "./viewing";
import { parsedWidgetCache } from "./widget-cache";

export { NO_SERVICE_CREATE } from "./crud";
export type { DashboardReports, GoalAlertsRemover, TemplateResolver } from "./deps";
export { LOCK_TIMEOUT_MS } from "./edit-lock";
export { EMBED_REFUSED, embedTokenValid, RENDER_TOKEN_TTL_S, signEmbedToken, signRenderToken } from "./embed-tokens";
export type { ExportTarget } from "./export-targets";
export { DashboardPasswordError, MAX_PASSWORD_FAILURES, NO_SERVICE_VIEW, PASSWORD_WINDOW_MS } from "./viewer-access";
export type { PublicHeader } from "./viewing";

/**
 * The dashboards service: one object for routes and other features, assembled from its use cases, each in
 * its own module of this folder — crud.ts (list, create, clone, archive), save.ts (the editor's save),
 * edit-lock.ts, embed-tokens.ts (embed links and the server's render pass), viewer-access.ts (who may see a
 * dashboard: members, tokens, the password and its lockout), viewing.ts (a dashboard and its widgets for a
 * viewer) and export-targets.ts (what the PDF export and the report senders read).
 */
export function dashboardsService(
  ctx: AppContext,
  storage: Storage,
  companies: CompaniesService,
  resolveTemplate: TemplateResolver,
  reportsOf: DashboardReports,
  removeGoalAlerts: GoalAlertsRemover,
) {
  const repo = dashboardsRepo(ctx.db);
  const deps: DashboardDeps = {
    ctx,
    repo,
    storage,
    companies,
    resolveTemplate,
    reportsOf,
    removeGoalAlerts,
    widgetsOf: parsedWidgetCache(),
    async load(actor: Actor, id: string) {
      const row = await repo.findById(actor.companyId, id);
      if (!row) throw AppError.notFound("Dashboard not found.");
      return row;
    },
  };
  const access = viewerAccess(deps);
  return {
    ...crudUseCases(deps),
    ...embedLinkUseCases(deps),
    ...access.useCases,
    ...viewingUseCases(deps, access),
    ...exportTargetUseCases(deps, access),
    ...saveUseCase(deps),
    ...editLockUseCases(deps),
  };
}

export type DashboardsService = ReturnType<typeof dashboardsService>;
