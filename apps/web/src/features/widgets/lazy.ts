// The widget editor, loaded on demand by the dashboard's edit mode (its own chunk, out of the
// public dashboard's first load): the one module other features import lazily.
export { duplicateWidget } from "./form/draft";
export { WidgetFormDrawer } from "./form/WidgetFormDrawer";
