import { CONNECTORS, type Connector } from "../src/connectors";

/** What a test may ask of "some connector" instead of naming one. */
export type ConnectorCapability = "oauth" | "domainMetrics";

/**
 * The first connector of the registry, in catalogue order, that has `capability`: a test that needs
 * some connector as its data (an OAuth popup page, a domain's metrics) asks for one by what it can do,
 * so connector names stay in their folders (scripts/check-connector-boundaries.mjs).
 */
export function connectorWith(capability: ConnectorCapability): Connector {
  const found = CONNECTORS.find((connector) => connector.available && connector[capability] !== undefined);
  if (!found) throw new Error(`No connector in the registry has ${capability}`);
  return found;
}
