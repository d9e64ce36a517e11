import { DOMAIN_METRICS_CONNECTORS } from "../../../connectors";
import type { AppContext } from "../../../context";
import type { DomainMetricsProvider } from "./types";

/**
 * The metrics sources of the servers' own provider keys (`domainMetrics.serverKey` of a connector: the
 * server's Ahrefs key, MC_AHREFS_KEY; docs/decisions.md, "Mission Control metric sources"): any domain,
 * no customer connection. `provider` is null on a server without the key.
 */
export function serverKeySources(ctx: Pick<AppContext, "clock" | "config" | "rateLimits" | "logger">) {
  return DOMAIN_METRICS_CONNECTORS.flatMap(({ domainMetrics }) =>
    domainMetrics.serverKey ? [domainMetrics.serverKey] : [],
  ).map((serverKey) => ({
    id: serverKey.id,
    label: `${serverKey.label} (server)`,
    notConfigured: serverKey.notConfigured,
    provider: serverKey.provider({
      config: ctx.config,
      counters: ctx.rateLimits,
      logger: ctx.logger,
      // Read through ctx at each call: tests replace ctx.clock with a manual one after the services exist.
      now: () => ctx.clock.now(),
    }) as DomainMetricsProvider | null,
  }));
}
