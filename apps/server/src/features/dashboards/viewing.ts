import {
  EMPTY_DASHBOARD_STYLES,
  type TDashboard,
  type TDashboardStyles,
  type TLanguage,
  type TWidget,
  type TWidgetGoal,
  type TWidgetInstance,
  todayInTimezone,
} from "@app/core";
import { AppError } from "../../infra/errors";
import type { Actor } from "../users/service";
import type { DashboardDeps } from "./deps";
import { lockHolder } from "./edit-lock";
import { languageOf, presentDashboard, withOwnImages } from "./presenter";
import type { ViewerAccess } from "./viewer-access";

/** A public, unprotected dashboard's header as its HTML paints it (see page-data routes). */
export interface PublicHeader {
  name: string;
  styles: TDashboardStyles;
  hiddenDateSelector: boolean;
}

/**
 * Opening a dashboard by its permalink (members, public viewers, embeds): the dashboard itself, its page
 * title, and the widgets whose data the widget-data request then asks for (widgets/service.ts).
 */
export function viewingUseCases({ repo, reportsOf, widgetsOf }: DashboardDeps, access: ViewerAccess) {
  const { viewable, ownerSiteTitle } = access;
  return {
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
      /** The print view: what the PDF prints, in the dashboard's language whoever opens it. */
      print = false,
    ): Promise<{
      name: string | null;
      siteTitle: string | null;
      publicHeader: PublicHeader | null;
      language: TLanguage | null;
    }> {
      const row = await repo.findByPermalink(permalink);
      if (!row) return { name: null, siteTitle: null, publicHeader: null, language: null };
      // A member's page is the agency's own screen (English around the dashboard): its page stays `en`,
      // but for the print view, which is the client's PDF as a page and says the dashboard's language.
      if (viewerCompanyId === row.company_id) {
        return {
          name: row.name,
          siteTitle: null,
          publicHeader: null,
          language: print ? languageOf(row.language) : null,
        };
      }
      // Archived: not shown, but its "not found" page is still said in the language its client reads.
      if (row.active !== 1)
        return { name: null, siteTitle: null, publicHeader: null, language: languageOf(row.language) };
      const siteTitle = await ownerSiteTitle(row.company_id);
      // The client's page is in the dashboard's language, the password prompt's too.
      const language = languageOf(row.language);
      if (row.password_hash) return { name: null, siteTitle, publicHeader: null, language };
      // What a public viewer's page paints before its scripts run: only what `show` would give them.
      const styles = withOwnImages(row.company_id, {
        ...EMPTY_DASHBOARD_STYLES,
        ...(JSON.parse(row.styles) as Partial<TDashboardStyles>),
      });
      const publicHeader = { name: row.name, styles, hiddenDateSelector: row.hidden_date_selector === 1 };
      return { name: row.name, siteTitle, publicHeader, language };
    },

    /**
     * The instances of a saved widget for a viewer of the dashboard (same access rule as `show`),
     * with the owning company, so the data path queries the owner's sources, and the dashboard's language,
     * which the labels of its answer are said in.
     */
    async widgetForViewer(
      viewer: Actor | null,
      permalink: string,
      widgetId: string,
      passwordAttempt: string | null,
      clientAddress = "",
      embedToken: string | null = null,
    ): Promise<{
      companyId: string;
      instances: readonly TWidgetInstance[];
      goals: readonly TWidgetGoal[];
      language: TLanguage;
    }> {
      // One read of the row per widget request; only the asked widget is looked at.
      const { row } = await viewable(viewer, permalink, passwordAttempt, clientAddress, embedToken);
      const widget = widgetsOf(row).find((w) => w.id === widgetId);
      if (widget?.nature !== "interactive") throw AppError.notFound("Widget not found.");
      return {
        companyId: row.company_id,
        instances: widget.instances,
        goals: widget.goals ?? [],
        language: languageOf(row.language),
      };
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
    ): Promise<{ companyId: string; widgets: readonly TWidget[]; styles: TDashboardStyles; language: TLanguage }> {
      const { row } = await viewable(viewer, permalink, passwordAttempt, clientAddress, embedToken);
      const styles = { ...EMPTY_DASHBOARD_STYLES, ...(JSON.parse(row.styles) as Partial<TDashboardStyles>) };
      return { companyId: row.company_id, widgets: widgetsOf(row), styles, language: languageOf(row.language) };
    },
  };
}
