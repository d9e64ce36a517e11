import { REALTIME_EVENTS, type TCompanySourceUpdated, type TCompanySubscriptionUpdated } from "@app/core";
import type { QueryClient } from "@tanstack/react-query";
import { applySourceUpdate, applySubscriptionUpdate } from "./cache-updates";
import { openCompanyChannel } from "./client";

/** Connects the signed-in member's page to their company channel and keeps its query cache in step. */
export function startCompanyRealtime(queryClient: QueryClient, companyId: string): () => void {
  const channel = openCompanyChannel(companyId);
  channel.on(REALTIME_EVENTS.sourceUpdated, (data) => {
    void applySourceUpdate(queryClient, data as TCompanySourceUpdated);
  });
  channel.on(REALTIME_EVENTS.subscriptionUpdated, (data) => {
    void applySubscriptionUpdate(queryClient, data as TCompanySubscriptionUpdated);
  });
  return () => channel.close();
}
