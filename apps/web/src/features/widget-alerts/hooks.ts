import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { deleteWidgetAlert, fetchWidgetAlerts, saveWidgetAlert, snoozeWidgetAlert } from "./api";

/** Query keys of widget alerts: per dashboard and widget. */
export const widgetAlertKeys = {
  all: ["widget-alerts"] as const,
  widget: (dashboardId: string, widgetId: string) => ["widget-alerts", dashboardId, widgetId] as const,
};

export function useWidgetAlerts(dashboardId: string, widgetId: string, enabled: boolean) {
  return useQuery({
    queryKey: widgetAlertKeys.widget(dashboardId, widgetId),
    queryFn: () => fetchWidgetAlerts(dashboardId, widgetId),
    enabled,
  });
}

/** Save, delete and snooze; each refreshes the widget's list. */
export function useWidgetAlertActions(dashboardId: string, widgetId: string) {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: widgetAlertKeys.widget(dashboardId, widgetId) });
  return {
    save: useMutation({ mutationFn: saveWidgetAlert, onSuccess: refresh }),
    remove: useMutation({ mutationFn: deleteWidgetAlert, onSuccess: refresh }),
    snooze: useMutation({
      mutationFn: ({ id, on }: { id: string; on: boolean }) => snoozeWidgetAlert(id, on),
      onSuccess: refresh,
    }),
  };
}
