// What other features load on demand: the "Alert me when…" modal (a widget's menu in edit mode).

// The firing alerts' bell on a member's cards: loaded by the member's dashboard only.
export { alertBadges, WidgetAlertBadge, type WidgetAlertBadgeProps } from "./components/WidgetAlertBadge";
export { WidgetAlertsModal, type WidgetAlertsModalProps } from "./components/WidgetAlertsModal";
