import type { AppContext } from "../context";
import { auditFeature } from "./audit";
import { authFeature } from "./auth";
import { reportsFeature } from "./automatic-reports";
import { billingFeature } from "./billing";
import { campaignsFeature } from "./campaigns";
import { companiesFeature } from "./companies";
import { couponsFeature } from "./coupons";
import { dashboardsFeature } from "./dashboards";
import { exportsFeature } from "./exports";
import { filesFeature } from "./files";
import { healthFeature } from "./health";
import { insightsFeature } from "./insights";
import { oauthFeature } from "./oauth";
import { opsFeature } from "./ops";
import { pageDataFeature } from "./page-data";
import { passkeysFeature } from "./passkeys";
import { realtimeFeature } from "./realtime";
import { buildServices, type Feature, type ServiceRegistry } from "./registry";
import { senderFeature } from "./sender";
import { signedInSessionsFeature } from "./sessions";
import { socialAuthFeature } from "./social-auth";
import { sourcesFeature } from "./sources";
import { twoFactorFeature } from "./two-factor";
import { usersFeature } from "./users";
import { widgetAlertsFeature } from "./widget-alerts";
import { widgetsFeature } from "./widgets";

/**
 * Every feature, in order: a feature's services may use those of features before it at once, and any
 * feature's services later (lookups at call time). Page data comes last: it answers every other URL.
 */
export const FEATURES: readonly Feature[] = [
  healthFeature,
  opsFeature,
  filesFeature,
  sourcesFeature,
  oauthFeature,
  widgetsFeature,
  companiesFeature,
  auditFeature,
  couponsFeature,
  billingFeature,
  authFeature,
  socialAuthFeature,
  twoFactorFeature,
  usersFeature,
  passkeysFeature,
  signedInSessionsFeature,
  dashboardsFeature,
  exportsFeature,
  insightsFeature,
  senderFeature,
  reportsFeature,
  campaignsFeature,
  widgetAlertsFeature,
  realtimeFeature,
  pageDataFeature,
];

export function buildFeatureServices(ctx: AppContext) {
  return buildServices(ctx, FEATURES);
}

/**
 * Defines every feature's jobs on the context's queue. Every process calls it once (web processes to
 * enqueue, workers to run), whether or not it serves HTTP.
 */
export function defineJobs(ctx: AppContext, services: ServiceRegistry): void {
  for (const feature of FEATURES) for (const job of feature.jobs?.(ctx, services) ?? []) ctx.jobs.define(job);
}

/** Called by a process once its job runner has started: each feature's catch-up (e.g. missed report slots). */
export async function jobsStarted(ctx: AppContext, services: ServiceRegistry): Promise<void> {
  for (const feature of FEATURES) await feature.onJobsStarted?.(ctx, services);
}
