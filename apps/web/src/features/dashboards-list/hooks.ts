import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { companyQuery } from "../company";
import { onboardingEvent } from "../onboarding";
import { useRefreshPageData } from "../session/hooks";
import {
  archiveDashboard,
  cloneDashboard,
  createDashboard,
  type DashboardListParams,
  deleteDashboard,
  restoreDashboard,
} from "./api";
import { dashboardListKeys, dashboardListQuery, templatesQuery } from "./queries";

export function useDashboardList(params: DashboardListParams) {
  return useQuery(dashboardListQuery(params));
}

export function useTemplates() {
  return useQuery(templatesQuery());
}

/**
 * After any change to the company's dashboards: the list, the company's dashboard count and the
 * page data (its canCreateDashboard flag drives banner 129) are all out of date.
 */
function useAfterDashboardsChange() {
  const queryClient = useQueryClient();
  const refreshPageData = useRefreshPageData();
  return () => {
    void queryClient.invalidateQueries({ queryKey: dashboardListKeys.all });
    void queryClient.invalidateQueries({ queryKey: companyQuery().queryKey });
    void refreshPageData();
  };
}

export function useCreateDashboard() {
  const changed = useAfterDashboardsChange();
  return useMutation({
    mutationFn: createDashboard,
    onSuccess: () => {
      // Step 1 of the dashboard onboarding (docs/product.md §4), before the form opens the new dashboard.
      onboardingEvent("dashboard_created");
      return changed();
    },
  });
}

export function useCloneDashboard() {
  const changed = useAfterDashboardsChange();
  return useMutation({ mutationFn: cloneDashboard, onSuccess: changed });
}

export function useArchiveDashboard() {
  const changed = useAfterDashboardsChange();
  return useMutation({ mutationFn: archiveDashboard, onSuccess: changed });
}

export function useRestoreDashboard() {
  const changed = useAfterDashboardsChange();
  return useMutation({ mutationFn: restoreDashboard, onSuccess: changed });
}

export function useDeleteDashboard() {
  const changed = useAfterDashboardsChange();
  return useMutation({ mutationFn: deleteDashboard, onSuccess: changed });
}
