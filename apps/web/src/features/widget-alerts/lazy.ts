// What other features load on demand: the "Alert me when…" modal (a widget's menu in edit mode).
export { WidgetAlertsModal, type WidgetAlertsModalProps } from "./components/WidgetAlertsModal";
