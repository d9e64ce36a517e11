import type { TDashboardCreate, TDashboardListItem, TPageMeta, TTemplate } from "@app/core";
import { api } from "../../lib/api";

export interface DashboardListParams {
  search: string;
  active: boolean;
  page: number;
  perPage: number;
}

export interface DashboardListPage {
  data: TDashboardListItem[];
  meta: TPageMeta;
}

/** A dashboard template of GET /api/configs/templates (contract: core ZTemplate). */
export type DashboardTemplate = TTemplate;

export async function fetchDashboards(params: DashboardListParams): Promise<DashboardListPage> {
  return api<DashboardListPage>("/api/dashboards", {
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
  return (await api<{ data: { permalink: string } }>("/api/dashboards", { method: "POST", json: body })).data.permalink;
}

/** Copies a dashboard with its widgets; answers the copy's permalink. */
export async function cloneDashboard(id: string): Promise<string> {
  const path = `/api/dashboards/${encodeURIComponent(id)}/clone`;
  return (await api<{ data: { permalink: string } }>(path, { method: "POST" })).data.permalink;
}

export async function archiveDashboard(id: string): Promise<void> {
  await api<undefined>(`/api/dashboards/${encodeURIComponent(id)}/archive`, { method: "DELETE" });
}

export async function restoreDashboard(id: string): Promise<void> {
  await api<undefined>(`/api/dashboards/${encodeURIComponent(id)}/restore`, { method: "PUT" });
}

export async function deleteDashboard(id: string): Promise<void> {
  await api<undefined>(`/api/dashboards/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** Templates in the server's order (an object keyed by template key keeps insertion order). */
export async function fetchTemplates(): Promise<DashboardTemplate[]> {
  return Object.values((await api<{ data: Record<string, DashboardTemplate> }>("/api/configs/templates")).data);
}
