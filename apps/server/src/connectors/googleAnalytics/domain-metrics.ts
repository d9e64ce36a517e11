import {
  type ColumnMap,
  columnKeys,
  columnMetrics,
  type DomainMetrics,
  siteHost,
  tableDomainValues,
} from "../kit/domain-metrics";
import type { SourceHandle } from "../types";

/**
 * What GA4 gives per day. `users` is `activeUsers`: the number GA4's own reports call "Users" (since
 * 2023), so a client comparing with Google Analytics sees the same figure; `totalUsers` also counts
 * users who only fired a background event. `conversions` is `keyEvents`: Google renamed conversions to
 * key events in 2024 and the Data API's `conversions` metric is deprecated.
 */
const COLUMNS: ColumnMap = [
  ["sessions", "sessions"],
  ["activeUsers", "users"],
  ["keyEvents", "conversions"],
];

/**
 * Mission Control's GA4 (docs/decisions.md, "Mission Control metric sources"): the first property (in
 * Google's account order) with a web stream at the domain gives sessions, users and conversions, read by
 * day through the widget query `type`. Complete after about a day.
 */
export function ga4DomainMetrics(
  type: string,
  webProperties: (handle: SourceHandle) => Promise<{ account: string; property: string; uris: string[] }[]>,
): DomainMetrics {
  return {
    order: 2,
    metrics: columnMetrics(COLUMNS),
    lagDays: 1,
    hint: "Google Analytics 4",
    async locate(source, domain) {
      const properties = await source.call(webProperties);
      const found = properties.find((entry) => entry.uris.some((uri) => siteHost(uri) === domain));
      if (!found) return null;
      const inputs = {
        dimension: "date",
        metrics: columnKeys(COLUMNS),
        profile: found.property,
        property: found.account,
      };
      return {
        plan: `ga4:${source.id}:${found.property}`,
        read: async (range) => tableDomainValues(await source.query(type, inputs, range), COLUMNS),
      };
    },
  };
}
