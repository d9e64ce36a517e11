import type { MailDkim } from "../../infra/mail";
import type { DashboardsService } from "../dashboards/service";
import type { WidgetsService } from "../widgets/service";

/** The zone alerts judge "yesterday" in: dashboards have no zone of their own, and UTC is every worker's. */
export const WIDGET_ALERT_TIMEZONE = "UTC";

/** What widget alerts ask of other features: the dashboards' widgets, their data, and the company's sender. */
export interface WidgetAlertsDeps {
  dashboards: () => DashboardsService;
  widgets: () => WidgetsService;
  sender: (companyId: string) => Promise<{ fromName: string; fromAddress?: string; dkim?: MailDkim }>;
}
