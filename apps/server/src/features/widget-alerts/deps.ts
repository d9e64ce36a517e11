import type { MailDkim } from "../../infra/mail";
import type { DashboardsService } from "../dashboards/service";
import type { WidgetsService } from "../widgets/service";

/** What widget alerts ask of other features: the dashboards' widgets, their data, and the company's sender. */
export interface WidgetAlertsDeps {
  dashboards: () => DashboardsService;
  widgets: () => WidgetsService;
  sender: (companyId: string) => Promise<{ fromName: string; fromAddress?: string; dkim?: MailDkim }>;
}
