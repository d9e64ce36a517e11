import { REALTIME_EVENTS, type TWidgetAlertsUpdated } from "@app/core";
import type { AppContext } from "../../context";
import { broadcastToCompany } from "../../infra/broadcast";

/**
 * Tells the company's open pages that these dashboards' open widget alerts changed: they show the badge
 * (or drop it) without a reload; through the bus, so a worker's evaluation reaches every web process's sockets.
 */
export async function announceWidgetAlerts(
  ctx: AppContext,
  companyId: string,
  dashboardIds: string[],
  opened = 0,
  resolved = 0,
): Promise<void> {
  const message: TWidgetAlertsUpdated = { dashboard_ids: [...dashboardIds].sort(), opened, resolved };
  await broadcastToCompany(ctx, companyId, REALTIME_EVENTS.widgetAlertsUpdated, message);
}
