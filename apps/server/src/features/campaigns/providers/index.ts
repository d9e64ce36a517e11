import { CAMPAIGN_METRICS_SOURCES, type CampaignMetricsSource, type TCampaignMetricsSourceOption } from "@app/core";
import { DOMAIN_METRICS_CONNECTORS } from "../../../connectors";
import type { AppContext } from "../../../context";
import type { SourcesService } from "../../sources/service";
import { CONNECTED_LABEL, CONNECTED_PROVIDER_ID, connectedProvider } from "./connected";
import type { FeedingConnector } from "./connected-plan";
import { DEMO_LABEL, DEMO_PROVIDER_ID, demoProvider } from "./demo";
import { serverKeySources } from "./server-keys";
import type { DomainMetricsProvider } from "./types";

export type { DomainCoverage, DomainMetricsProvider, DomainMetricValue } from "./types";

/** One choice of the create form, whether or not this server can use it. */
interface Choice {
  id: string;
  label: string;
  /** Why this server cannot use it (no key), or null. */
  notConfigured: string | null;
}

/**
 * The provider behind a group's `metrics_source`, or null when this server has none for it (a value
 * written by a later version, or a server key's source on a server without the key): its domains then
 * say "no_provider". `sources` gives the connected-sources provider the sources service (looked up when
 * first used, so the two features may be built in any order); without it "sources" has no provider.
 * `feeding`: the connectors whose sources it reads (the registry's; a test may declare its own).
 */
export function metricsProviders(
  ctx: Pick<AppContext, "clock" | "config" | "rateLimits" | "logger">,
  sources?: () => SourcesService,
  feeding: readonly FeedingConnector[] = DOMAIN_METRICS_CONNECTORS,
) {
  const byId = new Map<string, DomainMetricsProvider>();
  const add = (provider: DomainMetricsProvider | null) => {
    if (provider) byId.set(provider.id, provider);
  };
  const serverKeys = serverKeySources(ctx);
  // Read through ctx at each call: tests replace ctx.clock with a manual one after the services exist.
  add(demoProvider({ now: () => ctx.clock.now() }));
  for (const serverKey of serverKeys) add(serverKey.provider);
  if (sources) add(connectedProvider(ctx, sources, feeding));
  // The order the form lists them: real data first (the company's sources, the server's keys), demo last.
  const choices: Choice[] = [
    { id: CONNECTED_PROVIDER_ID, label: CONNECTED_LABEL, notConfigured: null },
    ...serverKeys.map(({ id, label, notConfigured }) => ({ id, label, notConfigured })),
    { id: DEMO_PROVIDER_ID, label: DEMO_LABEL, notConfigured: null },
  ];
  return {
    forSource(source: string): DomainMetricsProvider | null {
      return byId.get(source) ?? null;
    },
    /** Every source of the contract, in the form's order, with whether this server can use it. */
    options(): TCampaignMetricsSourceOption[] {
      return choices
        .filter((choice): choice is Choice & { id: CampaignMetricsSource } =>
          (CAMPAIGN_METRICS_SOURCES as readonly string[]).includes(choice.id),
        )
        .map(({ id, label, notConfigured }) => {
          const available = byId.has(id);
          return { id, label, available, reason: available ? null : notConfigured };
        });
    },
  };
}

export type MetricsProviders = ReturnType<typeof metricsProviders>;
