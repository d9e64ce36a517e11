import {
  CAMPAIGN_METRICS_SOURCES,
  CAMPAIGN_SOURCE_MESSAGES,
  type CampaignMetricsSource,
  type TCampaignMetricsSourceOption,
} from "@app/core";
import type { AppContext } from "../../../context";
import type { SourcesService } from "../../sources/service";
import { AHREFS_KEY_LABEL, ahrefsKeyProvider } from "./ahrefs-key";
import { CONNECTED_LABEL, connectedProvider } from "./connected";
import { DEMO_LABEL, demoProvider } from "./demo";
import type { DomainMetricsProvider } from "./types";

export type { DomainCoverage, DomainMetricsProvider, DomainMetricValue } from "./types";

/** The create form's labels, whether or not this server can use the source. */
const LABELS: Record<CampaignMetricsSource, string> = {
  sources: CONNECTED_LABEL,
  ahrefs: `${AHREFS_KEY_LABEL} (server)`,
  demo: DEMO_LABEL,
};
/** The order the form lists them: real data first. */
const ORDER: readonly CampaignMetricsSource[] = ["sources", "ahrefs", "demo"];

/**
 * The provider behind a group's `metrics_source`, or null when this server has none for it (a value
 * written by a later version, or "ahrefs" on a server without MC_AHREFS_KEY): its domains then say
 * "no_provider". `sources` gives the connected-sources provider the sources service (looked up when
 * first used, so the two features may be built in any order); without it "sources" has no provider.
 */
export function metricsProviders(
  ctx: Pick<AppContext, "clock" | "config" | "rateLimits" | "logger">,
  sources?: () => SourcesService,
) {
  const byId = new Map<string, DomainMetricsProvider>();
  const add = (provider: DomainMetricsProvider | null) => {
    if (provider) byId.set(provider.id, provider);
  };
  // Read through ctx at each call: tests replace ctx.clock with a manual one after the services exist.
  add(demoProvider({ now: () => ctx.clock.now() }));
  add(ahrefsKeyProvider(ctx));
  if (sources) add(connectedProvider(ctx, sources));
  return {
    forSource(source: string): DomainMetricsProvider | null {
      return byId.get(source) ?? null;
    },
    /** Every source of the contract, in the form's order, with whether this server can use it. */
    options(): TCampaignMetricsSourceOption[] {
      return ORDER.filter((id) => CAMPAIGN_METRICS_SOURCES.includes(id)).map((id) => {
        const available = byId.has(id);
        return {
          id,
          label: LABELS[id],
          available,
          reason: available ? null : id === "ahrefs" ? CAMPAIGN_SOURCE_MESSAGES.ahrefsNotConfigured : null,
        };
      });
    },
  };
}

export type MetricsProviders = ReturnType<typeof metricsProviders>;
