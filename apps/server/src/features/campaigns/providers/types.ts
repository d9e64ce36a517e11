/**
 * Where a group's daily domain metrics come from (docs/decisions.md, "Mission Control metric sources"):
 * the shapes live with the connectors' domain metrics (connectors/kit/domain-metrics.ts), since a
 * connector's server key is a provider of its own.
 */
export type {
  DomainCoverage,
  DomainMetricsProvider,
  DomainMetricsRequest,
  DomainMetricValue,
} from "../../../connectors";
