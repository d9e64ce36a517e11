export type { PublicAccess } from "./api";
export { deleteWidgetFile } from "./api";
export { WidgetBadgeContext } from "./badge";
export { afterCardsDrawn } from "./charts/live-queue";
export { loadChartComponent, preloadChartCode } from "./components/InteractiveWidgetBody";
export { WidgetCard, type WidgetCardProps } from "./components/WidgetCard";
export { requestPeriod, takeArrivedWidgetData } from "./early-data";
export { duplicateWidget } from "./form/draft";
export { WidgetFormDrawer, type WidgetFormSession } from "./form/WidgetFormDrawer";
export { refusedGoals } from "./goals/refused";
export { DARK_PALETTE, DEFAULT_LOOK, LIGHT_PALETTE, type WidgetLook, WidgetLookContext } from "./look";
export {
  DEFAULT_PRINT_WIDGET_TIMEOUT_MS,
  type PrintMode,
  PrintModeContext,
  preloadPrintCharts,
  RealtimeMarkContext,
} from "./print";
export { PublicAccessContext, type WidgetRange, widgetDataQuery, widgetKeys } from "./queries";
