import type { ChangeWindow, TAlertRuleOverride } from "@app/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { onboardingEvent } from "../onboarding";
import {
  addCampaignDomain,
  createCampaign,
  deleteCampaign,
  removeCampaignDomain,
  saveAlertSettings,
  snoozeCampaignDomain,
  unsnoozeCampaignDomain,
  updateCampaign,
} from "./api";
import { alertSettingsQuery, campaignKeys, campaignQuery, campaignsQuery, metricsSourcesQuery } from "./queries";

export function useCampaigns() {
  return useQuery(campaignsQuery());
}

export function useMetricsSources() {
  return useQuery(metricsSourcesQuery());
}

export function useCampaign(id: string, window: ChangeWindow) {
  return useQuery(campaignQuery(id, window));
}

/**
 * Any change to a group moves its counts in the list too, so every campaign query is refetched; the
 * mutation waits for it, so a button stays busy until its row shows the new state.
 */
function useAfterCampaignChange() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: campaignKeys.all });
}

// Each success below is also a step of the mc onboarding flow (docs/product.md §4); the server publishes the
// same facts, the browser moves its own step with them.
export function useCreateCampaign() {
  const changed = useAfterCampaignChange();
  return useMutation({
    mutationFn: createCampaign,
    onSuccess: () => {
      onboardingEvent("group_created");
      return changed();
    },
  });
}

export function useAddCampaignDomain(campaignId: string) {
  const changed = useAfterCampaignChange();
  return useMutation({
    mutationFn: (domain: string) => addCampaignDomain(campaignId, domain),
    onSuccess: () => {
      onboardingEvent("domain_added");
      return changed();
    },
  });
}

export function useRemoveCampaignDomain(campaignId: string) {
  const changed = useAfterCampaignChange();
  return useMutation({
    mutationFn: (domainId: string) => removeCampaignDomain(campaignId, domainId),
    onSuccess: changed,
  });
}

/** Snoozes (`snooze: true`) or un-snoozes a domain's alerts. */
export function useSnoozeCampaignDomain(campaignId: string) {
  const changed = useAfterCampaignChange();
  return useMutation({
    mutationFn: ({ domainId, snooze }: { domainId: string; snooze: boolean }) =>
      snooze ? snoozeCampaignDomain(campaignId, domainId) : unsnoozeCampaignDomain(campaignId, domainId),
    onSuccess: (_data, { snooze }) => {
      if (snooze) onboardingEvent("domain_snoozed");
      return changed();
    },
  });
}

export function useAlertSettings() {
  return useQuery(alertSettingsQuery());
}

/** Saving the company's rules changes every group's effective rules, so every campaign query is refetched. */
export function useSaveAlertSettings() {
  const changed = useAfterCampaignChange();
  return useMutation({ mutationFn: saveAlertSettings, onSuccess: changed });
}

export function useUpdateCampaign(campaignId: string) {
  const changed = useAfterCampaignChange();
  return useMutation({
    mutationFn: (input: { name: string; alert_overrides?: TAlertRuleOverride[] }) => updateCampaign(campaignId, input),
    onSuccess: changed,
  });
}

/**
 * Deleting refreshes the list only. The group's own queries are left to expire unobserved: the page
 * showing the group is still mounted when the delete answers, and removing a query it observes makes
 * it ask the server for the group again (a 404, shown as an error) before the page has moved away.
 * Any in-flight refetch of it is cancelled for the same reason.
 */
export function useDeleteCampaign(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteCampaign(campaignId),
    onSuccess: async () => {
      await queryClient.cancelQueries({ queryKey: campaignKeys.detail(campaignId) });
      await queryClient.invalidateQueries({ queryKey: campaignKeys.list });
    },
  });
}
