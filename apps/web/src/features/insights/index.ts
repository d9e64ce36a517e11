export { WidgetInsight } from "./components/WidgetInsight";
