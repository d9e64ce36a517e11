import type { TOpenWidgetAlert } from "@app/core";
import { UnstyledButton } from "@mantine/core";
import { IconBell } from "../../../ui/icons";
import { useOpenWidgetAlerts } from "../hooks";

export interface WidgetAlertBadgeProps {
  dashboardId: string;
  widgetId: string;
  /** Opens the widget's alerts modal. */
  onOpen: () => void;
}

/** "2 alerts firing on Sessions and Users": what the badge is, for screen readers and the tooltip. */
export function badgeLabel(alerts: readonly Pick<TOpenWidgetAlert, "metric_label">[]): string {
  const metrics = [...new Set(alerts.map((alert) => alert.metric_label))];
  const named =
    metrics.length <= 1 ? (metrics[0] ?? "") : `${metrics.slice(0, -1).join(", ")} and ${metrics[metrics.length - 1]}`;
  return `${alerts.length} ${alerts.length === 1 ? "alert" : "alerts"} firing on ${named}`;
}

/**
 * The bell on a data widget's card while alerts on its metrics are firing (open, not paused, not
 * snoozed), with how many. Every card reads the dashboard's one query; nothing is drawn when none fires.
 */
export function WidgetAlertBadge({ dashboardId, widgetId, onOpen }: WidgetAlertBadgeProps) {
  const open = useOpenWidgetAlerts(dashboardId);
  const alerts = (open.data ?? []).filter((alert) => alert.widget_id === widgetId);
  if (alerts.length === 0) return null;
  const label = badgeLabel(alerts);
  return (
    <UnstyledButton
      className="dash-alert-badge"
      aria-label={label}
      title={[label, ...alerts.flatMap((alert) => (alert.message ? [alert.message] : []))].join("\n")}
      onClick={onOpen}
      data-testid="widget-alert-badge"
    >
      <IconBell size={14} strokeWidth={2.2} />
      <span>{alerts.length}</span>
    </UnstyledButton>
  );
}
