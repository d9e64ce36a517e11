export { AUTH_KIND_LABELS, connectorName, sourceLabels } from "./auth-kinds";
export { ConnectedSources } from "./components/ConnectedSources";
export { ConnectorCatalogue } from "./components/ConnectorCatalogue";
export { useConnectors, useSources } from "./hooks";
export { connectorsQuery, sourceKeys, sourcesQuery } from "./queries";
