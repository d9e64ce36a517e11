import type { TOpenWidgetAlert, TWidget } from "@app/core";
import { UnstyledButton } from "@mantine/core";
import { useOpenWidgetAlerts } from "../hooks";

export interface WidgetAlertBadgeProps {
  dashboardId: string;
  widgetId: string;
  /** Opens the widget's alerts modal. */
  onOpen: () => void;
}

/**
 * A bell, drawn here rather than in ui/icons.tsx: that module is shared with the public view's first
 * load, and every icon in it weighs on that budget (bundle-budget.test.ts); this one is for members.
 */
function Bell() {
  return (
    <svg
      width={14}
      height={14}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2.2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M10 5a2 2 0 1 1 4 0 7 7 0 0 1 4 6v3a4 4 0 0 0 2 3H4a4 4 0 0 0 2-3v-3a7 7 0 0 1 4-6" />
      <path d="M9 17v1a3 3 0 0 0 6 0v-1" />
    </svg>
  );
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
      <Bell />
      <span>{alerts.length}</span>
    </UnstyledButton>
  );
}

/**
 * The dashboard's card badges, as WidgetBadgeContext takes them: made here, in the chunk members load,
 * so the dashboard screen (shared with the public view's first load) holds no code of the bell.
 */
export function alertBadges(dashboardId: string, onOpen: (widget: TWidget) => void) {
  return (widget: TWidget) => (
    <WidgetAlertBadge dashboardId={dashboardId} widgetId={widget.id} onOpen={() => onOpen(widget)} />
  );
}
