/**
 * Key of the metric list and of the calculated metrics every type accepts (docs/product.md §3). A module
 * of its own, so the public view can read a widget's chosen metrics without the type-form rules.
 */
export const METRICS_PARAM = "metrics";
export const CALCULATED_METRICS_PARAM = "calculatedMetrics";
