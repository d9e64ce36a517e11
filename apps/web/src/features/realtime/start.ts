import {
  REALTIME_EVENTS,
  type TCampaignAlertsUpdated,
  type TCompanySourceUpdated,
  type TCompanySubscriptionUpdated,
  type TWidgetAlertsUpdated,
} from "@app/core";
import type { QueryClient } from "@tanstack/react-query";
import {
  applyCampaignAlertsUpdate,
  applySourceUpdate,
  applySubscriptionUpdate,
  applyWidgetAlertsUpdate,
  catchUpOnSubscribe,
} from "./cache-updates";
import { openCompanyChannel } from "./client";

/** Connects the signed-in member's page to their company channel and keeps its query cache in step. */
export function startCompanyRealtime(queryClient: QueryClient, companyId: string): () => void {
  // Events said while the page was not listening are lost: what they keep fresh is fetched again.
  const channel = openCompanyChannel(companyId, (again) => {
    void catchUpOnSubscribe(queryClient, { again });
  });
  channel.on(REALTIME_EVENTS.sourceUpdated, (data) => {
    void applySourceUpdate(queryClient, data as TCompanySourceUpdated);
  });
  channel.on(REALTIME_EVENTS.subscriptionUpdated, (data) => {
    void applySubscriptionUpdate(queryClient, data as TCompanySubscriptionUpdated);
  });
  channel.on(REALTIME_EVENTS.campaignAlertsUpdated, (data) => {
    void applyCampaignAlertsUpdate(queryClient, data as TCampaignAlertsUpdated);
  });
  channel.on(REALTIME_EVENTS.widgetAlertsUpdated, (data) => {
    void applyWidgetAlertsUpdate(queryClient, data as TWidgetAlertsUpdated);
  });
  return () => channel.close();
}
