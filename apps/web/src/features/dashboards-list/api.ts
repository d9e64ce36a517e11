import type { RouteOutput, TDashboardCreate, TTemplate } from "@app/core";
import { call } from "../../lib/api";

export interface DashboardListParams {
  search: string;
  active: boolean;
  page: number;
  perPage: number;
}

/** One page of GET /api/dashboards: its items and the pagination meta. */
export type DashboardListPage = RouteOutput<"dashboardsList">;

/** A dashboard template of GET /api/configs/templates (contract: core ZTemplate). */
export type DashboardTemplate = TTemplate;

export async function fetchDashboards(params: DashboardListParams): Promise<DashboardListPage> {
  return call("dashboardsList", {
    query: {
      search: params.search || undefined,
      active: params.active ? "true" : "false",
      page: params.page,
      perPage: params.perPage,
    },
  });
}

/** Creates a dashboard (blank or from a template) and answers its permalink. */
export async function createDashboard(body: TDashboardCreate): Promise<string> {
  return (await call("dashboardCreate", { body })).data.permalink;
}

/** Copies a dashboard with its widgets; answers the copy's permalink. */
export async function cloneDashboard(id: string): Promise<string> {
  return (await call("dashboardClone", { params: { id } })).data.permalink;
}

export async function archiveDashboard(id: string): Promise<void> {
  await call("dashboardArchive", { params: { id } });
}

export async function restoreDashboard(id: string): Promise<void> {
  await call("dashboardRestore", { params: { id } });
}

export async function deleteDashboard(id: string): Promise<void> {
  await call("dashboardDelete", { params: { id } });
}

/** Templates in the server's order (an object keyed by template key keeps insertion order). */
export async function fetchTemplates(): Promise<DashboardTemplate[]> {
  return Object.values((await call("templates")).data);
}
