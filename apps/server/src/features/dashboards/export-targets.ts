import type { TDashboardStyles, TLanguage, TWidget } from "@app/core";
import { EMPTY_DASHBOARD_STYLES } from "@app/core";
import type { DashboardsTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import type { Actor } from "../users/service";
import type { DashboardDeps } from "./deps";
import { RENDER_TOKEN_TTL_S, signRenderToken } from "./embed-tokens";
import { languageOf } from "./presenter";
import type { ViewerAccess } from "./viewer-access";

/** A dashboard as the PDF export and the report sender see it, with the pass to its print view. */
export interface ExportTarget {
  companyId: string;
  dashboardId: string;
  permalink: string;
  name: string;
  /** Changes whenever the dashboard is saved. */
  version: string;
  /** The language its client reads it in: the report e-mail's words, numbers and dates. */
  language: TLanguage;
  widgetCount: number;
  /** For the server's headless browser only (signRenderToken). */
  renderToken: string;
}

/** What the PDF export (exports feature) and the automatic reports' senders (reports feature) read of a dashboard. */
export function exportTargetUseCases({ ctx, repo, widgetsOf }: DashboardDeps, { viewable }: ViewerAccess) {
  function exportTargetOf(row: DashboardsTable): ExportTarget {
    const exp = Math.floor(ctx.clock.now().getTime() / 1000) + RENDER_TOKEN_TTL_S;
    return {
      companyId: row.company_id,
      dashboardId: row.id,
      permalink: row.permalink,
      name: row.name,
      version: row.updated_at,
      language: languageOf(row.language),
      widgetCount: widgetsOf(row).length,
      renderToken: signRenderToken(ctx.config.appKey, row, exp),
    };
  }

  return {
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
    ): Promise<{ widgets: readonly TWidget[]; styles: TDashboardStyles; language: TLanguage }> {
      const row = await repo.findById(companyId, dashboardId);
      if (!row) throw AppError.notFound("Dashboard not found.");
      const styles = { ...EMPTY_DASHBOARD_STYLES, ...(JSON.parse(row.styles) as Partial<TDashboardStyles>) };
      return { widgets: widgetsOf(row), styles, language: languageOf(row.language) };
    },

    /** A dashboard's widgets as saved, for the server's own work on it (pre-warming a report's data). */
    async widgetsById(companyId: string, dashboardId: string): Promise<readonly TWidget[]> {
      const row = await repo.findById(companyId, dashboardId);
      return row ? widgetsOf(row) : [];
    },
  };
}
