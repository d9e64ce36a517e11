import { connectGoogle, googleError, revokeGoogleGrant } from "../../../test/connector-scenarios/google";
import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import { googleFake } from "../google/fake";
import { fakeSpreadsheetId, sheetsFake } from "./fake";

/** The fake's "Channels Q1" (By channel: Organic, Paid, Email, then a Total row) and "Daily traffic". */
const CHANNELS = fakeSpreadsheetId("channels");
const DAILY = fakeSpreadsheetId("dailytraffic");
const VALUES = /^\/v4\/spreadsheets\/[^/]+\/values\//;

/** A sheet widget; inputs as the data path normalises them (declared keys, sorted). */
function sheet(metrics: string[], flags: { has_footer: boolean; has_labels?: boolean }, property = CHANNELS) {
  const inputs = {
    has_header: true,
    has_labels: true,
    uses_date_range: false,
    ...flags,
    metrics,
    property,
    sheet: property === CHANNELS ? "By channel" : "Daily",
  };
  return {
    type: "googleSheets.sheet",
    inputs: Object.fromEntries(Object.entries(inputs).sort(([a], [b]) => a.localeCompare(b))),
  };
}
/** Faults for the channels spreadsheet's reads only. */
const atChannels = (status: number, body: unknown, headers?: Record<string, string>) => ({
  status,
  body,
  pathIncludes: CHANNELS,
  ...(headers && { headers }),
});

connectorScenarios({
  title: "Google Sheets",
  fakes: () => {
    const google = googleFake();
    return { google, sheets: sheetsFake(google.state) };
  },
  part: "sheets",
  connect: (client) => connectGoogle(client, "googleSheets"),
  queries: [
    sheet(["visits"], { has_footer: true }),
    sheet(["orders"], { has_footer: true }),
    sheet(["visits"], { has_footer: false }),
    sheet(["orders"], { has_footer: false }),
    sheet(["visits", "orders"], { has_footer: true }),
    sheet(["visits", "orders"], { has_footer: false }),
    sheet(["sessions"], { has_footer: false }, DAILY),
  ],
  upstream: (call) => VALUES.test(call.path),
  notices: {
    limited: "Google Sheets is limiting requests",
    down: "Google Sheets is not answering",
    reconnect: "Google Sheets needs to be reconnected",
  },
  revoke: async (fakes, env, sourceId) => revokeGoogleGrant(fakes.parts.google, env, sourceId),
  // A minute's Retry-After holds the source's reads in this process (every scenario connects its own).
  limited: [
    atChannels(
      429,
      googleError(
        429,
        "RESOURCE_EXHAUSTED",
        "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' of service 'sheets.googleapis.com'.",
      ),
      { "retry-after": "60" },
    ),
  ],
  down: Array.from({ length: 3 }, () =>
    atChannels(503, googleError(503, "UNAVAILABLE", "The service is currently unavailable.")),
  ),
  malformed: [atChannels(200, '{"range": "\'By channel\'!A1:C5", "values": [["Channel", ')],
  // A sheet never settles (its results are kept 15 minutes, however old the range): asked again at once,
  // the stored result is served all the same.
  settled: {
    query: sheet(["sessions"], { has_footer: false, has_labels: false }, DAILY),
    range: { startDate: "2025-03-01", endDate: "2025-03-31" },
  },
});
