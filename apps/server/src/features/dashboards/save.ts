import {
  EMPTY_DASHBOARD_STYLES,
  removedGoalMetrics,
  type TDashboardSave,
  type TDashboardStyles,
  type TWidget,
} from "@app/core";
import type { Updateable } from "kysely";
import { widgetType } from "../../connectors";
import type { DashboardsTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { sanitizeUserHtml } from "../../infra/html";
import { nowIso } from "../../infra/security";
import { storeImage } from "../../infra/storage";
import type { Actor } from "../users/service";
import type { DashboardDeps } from "./deps";
import { lockHolder, staleLockBefore } from "./edit-lock";
import { withOwnImages } from "./presenter";
import { dashboardsRepo } from "./repo";

/** Image parts of the multipart save (docs/product.md §7: snake case) and the style each one fills. */
const STYLE_FILES: Record<string, "logoImage" | "backgroundImage" | "clientImage"> = {
  logo_image: "logoImage",
  background_image: "backgroundImage",
  client_image: "clientImage",
};

/** Saving a dashboard from the editor: its widgets, styles, images and settings. */
export function saveUseCase({ ctx, repo, storage, load, widgetsOf, removeGoalAlerts }: DashboardDeps) {
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

  return {
    /**
     * The multipart save of docs/product.md §7; only the lock holder may save while the dashboard is locked.
     * Answers the stored styles and what the save did besides that its user should hear of (`notices`).
     */
    async save(
      actor: Actor,
      id: string,
      input: TDashboardSave,
      files: Record<string, Buffer>,
    ): Promise<{ styles: TDashboardStyles; notices: string[] }> {
      const row = await load(actor, id);
      const holder = lockHolder(row);
      if (holder && holder !== actor.id) throw AppError.forbidden("This dashboard is being edited by another user.");
      if (input.widgets) await assertOwnSources(actor.companyId, input.widgets);
      const stored = { ...EMPTY_DASHBOARD_STYLES, ...(JSON.parse(row.styles) as Partial<TDashboardStyles>) };
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
        ...(input.language !== undefined && { language: input.language }),
        ...(input.range_type !== undefined && { range_type: input.range_type }),
        ...(input.start !== undefined && { start_date: input.start, end_date: input.end ?? null }),
        ...(input.compare_start !== undefined && {
          compare_start_date: input.compare_start ?? null,
          compare_end_date: input.compare_end ?? null,
        }),
      };
      const refused = () => AppError.forbidden("This dashboard is being edited by another user.");
      // A goal taken off a metric takes its off-pace alerts along, in the same transaction (docs/decisions.md,
      // "An off-pace alert goes with its goal"): a rule left behind would only say "no goal verdict yet".
      const lost = input.widgets ? removedGoalMetrics(widgetsOf(row), input.widgets) : [];
      if (lost.length === 0) {
        if (!(await repo.updateAsEditor(actor.companyId, id, actor.id, staleLockBefore(), patch))) throw refused();
        return { styles, notices: [] };
      }
      const widgets = input.widgets ?? [];
      const notices = await ctx.db.transaction().execute(async (trx) => {
        if (!(await dashboardsRepo(trx).updateAsEditor(actor.companyId, id, actor.id, staleLockBefore(), patch))) {
          throw refused();
        }
        return removeGoalAlerts(trx, actor.companyId, id, widgets, lost);
      });
      return { styles, notices };
    },
  };
}

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

/** Text-card, description and note HTML of a widget, reduced to presentational markup. */
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
