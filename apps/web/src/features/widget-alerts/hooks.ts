import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { deleteWidgetAlert, fetchOpenWidgetAlerts, fetchWidgetAlerts, saveWidgetAlert, snoozeWidgetAlert } from "./api";
import { widgetAlertKeys } from "./keys";

export { widgetAlertKeys };

export function useWidgetAlerts(dashboardId: string, widgetId: string, enabled: boolean) {
  return useQuery({
    queryKey: widgetAlertKeys.widget(dashboardId, widgetId),
    queryFn: () => fetchWidgetAlerts(dashboardId, widgetId),
    enabled,
  });
}

/**
 * The dashboard's open alerts (firing, not paused, not snoozed): one request shared by every card's
 * badge, fetched again when the company channel says they changed.
 */
export function useOpenWidgetAlerts(dashboardId: string) {
  return useQuery({
    queryKey: widgetAlertKeys.open(dashboardId),
    queryFn: () => fetchOpenWidgetAlerts(dashboardId),
    staleTime: 60_000,
  });
}

/** Save, delete and snooze; each refreshes the widget's list and the dashboard's badges. */
export function useWidgetAlertActions(dashboardId: string, widgetId: string) {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: widgetAlertKeys.widget(dashboardId, widgetId) });
    void queryClient.invalidateQueries({ queryKey: widgetAlertKeys.open(dashboardId) });
  };
  return {
    save: useMutation({ mutationFn: saveWidgetAlert, onSuccess: refresh }),
    remove: useMutation({ mutationFn: deleteWidgetAlert, onSuccess: refresh }),
    snooze: useMutation({
      mutationFn: ({ id, on }: { id: string; on: boolean }) => snoozeWidgetAlert(id, on),
      onSuccess: refresh,
    }),
  };
}
