// Tests of contract/dashboards.ts and contract/sources.ts; they live here because this change owns
// only those two contract files.
import { describe, expect, it } from "vitest";
import {
  ZCalculatedMetric,
  ZDashboard,
  ZDashboardListQuery,
  ZDashboardSave,
  ZTable,
  ZWidget,
  ZWidgetDataRequest,
  ZWidgetDataResponse,
} from "../contract/dashboards";
import {
  sourceCredentialErrors,
  type TAuthKind,
  type TSourceCredentials,
  ZConnector,
  ZSourceCreate,
  ZWidgetTypeConfig,
} from "../contract/sources";
import { buildInstance, buildPassiveWidget, buildWidget } from "./test-fixtures";

const styles = {
  backgroundColor: "#fff",
  dashboardBackgroundColor: null,
  color: "not-a-colour",
  theme: "light",
  logoImage: null,
  backgroundImage: null,
  clientImage: null,
};

describe("ZWidget", () => {
  it.each<[string, unknown, boolean]>([
    ["interactive", buildWidget(), true],
    ["passive", buildPassiveWidget(), true],
    ["width beyond the grid", buildWidget({ width: 5 }), false],
    ["height beyond 3", buildWidget({ height: 4 }), false],
    ["unknown format", { ...buildWidget(), format: "chart:donut" }, false],
    ["no instances", buildWidget({ instances: [] }), false],
    ["passive with a chart format", { ...buildPassiveWidget(), format: "table" }, false],
    ["passive unknown type", { ...buildPassiveWidget(), type: "video" }, false],
    ["unknown nature", { ...buildWidget(), nature: "other" }, false],
    [
      "instance with calculated metrics",
      buildWidget({
        instances: [
          buildInstance({
            inputs: { metrics: [], calculatedMetrics: [{ id: "c", name: "R", type: "average", expression: "a / b" }] },
          }),
        ],
      }),
      true,
    ],
  ])("%s → %s", (_label, value, ok) => {
    expect(ZWidget.safeParse(value).success).toBe(ok);
  });
});

describe("ZCalculatedMetric", () => {
  it.each([
    ["valid", { id: "c", name: "Rate", type: "numeric:percent", expression: "a / b * 100" }, null],
    ["time type with unit", { id: "c", name: "T", type: "average:time:minutes", expression: "a" }, null],
    ["time type without unit", { id: "c", name: "T", type: "average:time", expression: "a" }, "type"],
    ["bad expression", { id: "c", name: "Rate", type: "numeric", expression: "a +* b" }, "expression"],
    ["empty name", { id: "c", name: " ", type: "numeric", expression: "a" }, "name"],
  ])("%s", (_label, value, failingField) => {
    const result = ZCalculatedMetric.safeParse(value);
    expect(result.success).toBe(failingField === null);
    if (!result.success) expect(result.error.issues[0].path).toEqual([failingField]);
  });

  it("says where the expression is wrong", () => {
    const result = ZCalculatedMetric.safeParse({ id: "c", name: "R", type: "numeric", expression: "a +* b" });
    expect(result.success ? "" : result.error.issues[0].message).toBe("Unexpected token at character 4.");
  });
});

describe("ZDashboard", () => {
  const dashboard = {
    id: "d1",
    permalink: "abc",
    name: "Client",
    active: true,
    rangeType: "last_30_days",
    startDate: "2026-02-16",
    endDate: "2026-03-17",
    compareStartDate: null,
    compareEndDate: null,
    defaults: {},
    widgets: [buildWidget(), buildPassiveWidget()],
    automaticReports: [
      {
        id: "r1",
        dashboard_id: "d1",
        dashboard: { id: "d1", name: "Client", permalink: "abc", widget_count: 2 },
        recipients: "client@example.com",
        period: "MONTH",
        detail: "FIRST_DAY",
        hour: 8,
        minute: 0,
        timezone: "Europe/Berlin",
        date_range: "LAST_MONTH",
        with_pdf: false,
        with_preview: true,
        next_run_at: "2026-04-01T06:00:00.000Z",
        last_result: null,
        created_at: "2026-03-17T10:00:00.000Z",
        updated_at: "2026-03-17T10:00:00.000Z",
      },
    ],
    styles,
    passwordProtected: false,
    locked: null,
    hiddenDateSelector: false,
    language: "en",
    footer: null,
  };
  it.each<[string, object, boolean]>([
    ["valid", dashboard, true],
    ["unknown range type", { ...dashboard, rangeType: "yearly" }, false],
    ["impossible date", { ...dashboard, endDate: "2026-02-30" }, false],
    ["locked by a user", { ...dashboard, locked: "u1" }, true],
    [
      "weekly report with a month's detail",
      { ...dashboard, automaticReports: [{ ...dashboard.automaticReports[0], period: "WEEK" }] },
      false,
    ],
    [
      "weekly report on Sunday",
      { ...dashboard, automaticReports: [{ ...dashboard.automaticReports[0], period: "WEEK", detail: 0 }] },
      true,
    ],
  ])("%s → %s", (_label, value, ok) => {
    expect(ZDashboard.safeParse(value).success).toBe(ok);
  });
});

describe("ZDashboardListQuery", () => {
  it.each([
    [{}, { page: 1, perPage: 20 }],
    [
      { page: "3", perPage: "50", active: "false", search: " acme " },
      { page: 3, perPage: 50, active: "false", search: "acme" },
    ],
  ])("%o", (query, expected) => {
    expect(ZDashboardListQuery.parse(query)).toEqual(expected);
  });

  it.each([[{ active: "yes" }], [{ page: "0" }], [{ perPage: "500" }]])("rejects %o", (query) => {
    expect(ZDashboardListQuery.safeParse(query).success).toBe(false);
  });
});

describe("ZDashboardSave (multipart)", () => {
  const fields = {
    styles: JSON.stringify({ color: "#000" }),
    widgets: JSON.stringify([buildWidget()]),
    name: "Client",
    hidden_date_selector: "1",
    footer: "<p>Hi</p>",
    range_type: "custom",
    start: "2026-03-01",
    end: "2026-03-17",
    compare_start: "",
    compare_end: "",
  };
  it("parses JSON fields and form booleans", () => {
    const parsed = ZDashboardSave.parse(fields);
    expect(parsed.styles).toEqual({ color: "#000" });
    expect(parsed.widgets?.[0].id).toBe("w1");
    expect([parsed.hidden_date_selector, parsed.compare_start, parsed.compare_end]).toEqual([true, null, null]);
  });

  it.each<[string, object, string]>([
    ["bad JSON", { ...fields, widgets: "[" }, "widgets"],
    ["invalid widget", { ...fields, widgets: JSON.stringify([{ nature: "interactive" }]) }, "widgets"],
    ["half a compare range", { ...fields, compare_start: "2026-02-01" }, "compare_end"],
    ["start without end", { ...fields, end: undefined }, "end"],
    ["bad range type", { ...fields, range_type: "yearly" }, "range_type"],
  ])("%s is refused at %s", (_label, value, field) => {
    const result = ZDashboardSave.safeParse(value);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.issues[0].path[0]).toBe(field);
  });
});

describe("widget data", () => {
  const request = { instances: [buildInstance()], startDate: "2026-03-01", endDate: "2026-03-17" };
  it.each<[string, object, boolean]>([
    ["minimal", request, true],
    ["with compare", { ...request, compareStartDate: "2025-03-01", compareEndDate: "2025-03-17" }, true],
    ["half compare", { ...request, compareStartDate: "2025-03-01" }, false],
    ["end before start", { ...request, endDate: "2026-02-01" }, false],
    ["no instances", { ...request, instances: [] }, false],
  ])("request %s → %s", (_label, value, ok) => {
    expect(ZWidgetDataRequest.safeParse(value).success).toBe(ok);
  });

  it("defaults the zone and comparison", () => {
    expect(ZWidgetDataRequest.parse(request)).toMatchObject({ timezone: "UTC", comparison: true });
  });

  const table = {
    dimension: null,
    metrics: [{ key: "s", label: "Sessions", format: "number" }],
    rows: [{ dimension: null, values: [null] }],
    totals: [3],
  };
  it.each<[string, object, boolean]>([
    ["null values mean N/A", table, true],
    ["unknown metric format", { ...table, metrics: [{ key: "s", label: "S", format: "ratio" }] }, false],
  ])("table %s → %s", (_label, value, ok) => {
    expect(ZTable.safeParse(value).success).toBe(ok);
  });

  it("wraps current, previous and errors in data", () => {
    const body = { data: { current: table, previous: null, errors: [{ instanceId: "i1", message: "Data Error" }] } };
    expect(ZWidgetDataResponse.parse(body)).toEqual(body);
  });
});

describe("sources contract", () => {
  it.each<[string, object, boolean]>([
    [
      "connector",
      { key: "ga4", displayName: "Google Analytics", order: 1, authKind: "oauth2", available: true, note: null },
      true,
    ],
    [
      "WooCommerce auth",
      { key: "woo", displayName: "WooCommerce", order: 20, authKind: "site+key|secret", available: false, note: "x" },
      true,
    ],
    [
      "unknown auth",
      { key: "x", displayName: "X", order: 1, authKind: "password", available: true, note: null },
      false,
    ],
  ])("ZConnector %s → %s", (_label, value, ok) => {
    expect(ZConnector.safeParse(value).success).toBe(ok);
  });

  it("accepts nested params in a widget type config", () => {
    const config = {
      type: "sheets",
      label: "Google Sheets",
      connector: "sheets",
      formats: ["table", "chart:line"],
      params: [
        {
          key: "uses_date_range",
          label: "Date range",
          kind: "boolean",
          required: true,
          children: [
            { key: "col", label: "Column", kind: "select", required: true, options: [{ value: "A", label: "A" }] },
          ],
        },
      ],
    };
    const parsed = ZWidgetTypeConfig.parse(config);
    expect(parsed.params[0].children?.[0].key).toBe("col");
    expect(parsed.mergeWithoutDimension).toBe(false);
  });

  it.each([
    [{ name: "ahrefs", account: " acme ", token: "t" }, true],
    [{ name: "" }, false],
    [{ name: "ahrefs", token: "" }, false],
  ])("ZSourceCreate %o → %s", (value, ok) => {
    expect(ZSourceCreate.safeParse(value).success).toBe(ok);
  });

  it.each<[TAuthKind, TSourceCredentials, Record<string, string>]>([
    ["oauth2", {}, {}],
    ["token", {}, { token: "The token field is required." }],
    ["account+token", { token: "t" }, { account: "The account field is required." }],
    ["account+token", { account: "a", token: "t" }, {}],
    ["site+key|secret", { site: "https://shop.test", token: "ck|cs" }, {}],
    [
      "site+key|secret",
      { site: "https://shop.test", token: "ck" },
      { token: "The token must be written as consumer key|consumer secret." },
    ],
    ["site+key|secret", { token: "ck|cs" }, { site: "The site field is required." }],
  ])("sourceCredentialErrors(%s, %o)", (kind, credentials, expected) => {
    expect(sourceCredentialErrors(kind, credentials)).toEqual(expected);
  });
});
