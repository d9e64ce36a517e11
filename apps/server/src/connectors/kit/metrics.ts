import type { TTableMetric } from "@app/core";
import { AppError } from "../../infra/errors";

/**
 * What every connector declares about a metric it offers: its key, its label, how it is shown and
 * whether less is better. A connector's own metric type extends this with how the number is made
 * (the parts it needs, the provider's field or column).
 */
export interface MetricDeclaration {
  key: string;
  label: string;
  format: TTableMetric["format"];
  lowerIsBetter?: boolean;
  /** A currency the provider always answers in (SEMrush and Serpstat: USD), whatever the account. */
  currency?: string;
}

/**
 * The table's column for a metric. A money metric carries the metric's own currency, else the
 * account's when the connector knows one (`null` when the provider did not say: the column still says
 * it is money); without an account currency (`undefined`) no currency is written at all.
 */
export function metricHeader(metric: MetricDeclaration, accountCurrency?: string | null): TTableMetric {
  const currency = metric.currency ?? (metric.format === "money" ? accountCurrency : undefined);
  return {
    key: metric.key,
    label: metric.label,
    format: metric.format,
    ...(currency !== undefined && { currency }),
    ...(metric.lowerIsBetter && { lowerIsBetter: true }),
  };
}

/**
 * The widget's chosen metrics, each one the connector offers: none chosen is the field's "required"
 * 422, an unknown key is named in the provider's words ("TikTok has no metric reach.").
 */
export function requireMetrics<M extends { key: string }>(
  value: unknown,
  byKey: ReadonlyMap<string, M>,
  providerName: string,
): M[] {
  const keys = Array.isArray(value) ? value.map(String).filter(Boolean) : [];
  if (keys.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
  const unknown = keys.filter((key) => !byKey.has(key));
  if (unknown.length > 0) {
    throw AppError.validation({ metrics: [`${providerName} has no metric ${unknown.join(", ")}.`] });
  }
  return keys.map((key) => byKey.get(key) as M);
}
