import type { TConnector, TWidgetTypeConfig } from "@app/core";
import { csvConnector } from "./csv";
import { demoConnector } from "./demo";
import { THIRD_PARTY_CONNECTORS } from "./third-party";
import type { Connector } from "./types";

export { ProviderError, type ProviderErrorKind } from "./http/errors";
export type { Connector, QueryRequest, SourceHandle, UploadedFile } from "./types";
export { ConnectorError } from "./types";

/** Every connector in catalogue display order (docs/product.md §3): Demo first, CSV between Sheets (8) and Ahrefs (10). */
export const CONNECTORS: readonly Connector[] = [demoConnector, csvConnector, ...THIRD_PARTY_CONNECTORS].sort(
  (a, b) => a.order - b.order,
);

const byKey = new Map(CONNECTORS.map((connector) => [connector.key, connector]));
const typeIndex = new Map<string, { connector: Connector; config: TWidgetTypeConfig }>(
  CONNECTORS.flatMap((connector) =>
    connector.widgetTypes.map((config) => [config.type, { connector, config }] as const),
  ),
);

/** A connector by key, or undefined. */
export function connectorByKey(key: string): Connector | undefined {
  return byKey.get(key);
}

/** A widget type and the connector offering it, or undefined. */
export function widgetType(type: string): { connector: Connector; config: TWidgetTypeConfig } | undefined {
  return typeIndex.get(type);
}

/** The catalogue as the API shows it (GET /api/configs/connectors). */
export function catalogue(): TConnector[] {
  return CONNECTORS.map(({ key, displayName, order, authKind, available, note }) => ({
    key,
    displayName,
    order,
    authKind,
    available,
    note,
  }));
}
