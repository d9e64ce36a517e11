import type { RemovedGoalMetric, TAutomaticReport, TWidget } from "@app/core";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import type { DashboardsTable } from "../../infra/db/schema";
import type { Storage } from "../../infra/storage";
import type { CompaniesService } from "../companies/service";
import type { Actor } from "../users/service";
import type { dashboardsRepo } from "./repo";

/** Widgets of a template, with their instances pointed at a source of the company. */
export type TemplateResolver = (companyId: string, key: string) => Promise<TWidget[] | null>;

/** The automatic reports of a dashboard (the reports feature keeps them). */
export type DashboardReports = (companyId: string, dashboardId: string) => Promise<TAutomaticReport[]>;

/**
 * Removes the off-pace alert rules of metrics whose last goal a save took away, inside the save's
 * transaction (`db`); answers a sentence per rule removed (the widget-alerts feature keeps the rules).
 */
export type GoalAlertsRemover = (
  db: Db,
  companyId: string,
  dashboardId: string,
  widgets: readonly TWidget[],
  metrics: readonly RemovedGoalMetric[],
) => Promise<string[]>;

/**
 * What every use case of the dashboards service works with: the context, the repo, the other features it
 * asks, and the two helpers they all share (a member's dashboard by id, a row's parsed widget list).
 * `service.ts` builds it once and hands it to each use-case module.
 */
export interface DashboardDeps {
  ctx: AppContext;
  repo: ReturnType<typeof dashboardsRepo>;
  storage: Storage;
  companies: CompaniesService;
  resolveTemplate: TemplateResolver;
  reportsOf: DashboardReports;
  removeGoalAlerts: GoalAlertsRemover;
  /** The actor's company's dashboard by id, or a 404. */
  load(actor: Actor, id: string): Promise<DashboardsTable>;
  /** The row's widget list, parsed once per saved text (see widget-cache.ts). */
  widgetsOf(row: Pick<DashboardsTable, "id" | "widgets">): readonly TWidget[];
}
