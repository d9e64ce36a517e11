import type { AppContext } from "../../../context";
import { demoProvider } from "./demo";
import type { DomainMetricsProvider } from "./types";

export type { DomainMetricsProvider, DomainMetricValue } from "./types";

/**
 * The provider behind a group's `metrics_source`, or null when this version has none for it (a value
 * written by a later version, or a source not built yet): its domains then say "no_provider".
 */
export function metricsProviders(ctx: Pick<AppContext, "clock">) {
  const demo = demoProvider(ctx.clock);
  return {
    forSource(source: string): DomainMetricsProvider | null {
      return source === "demo" ? demo : null;
    },
  };
}

export type MetricsProviders = ReturnType<typeof metricsProviders>;
