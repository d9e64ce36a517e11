import { describe, expect, it } from "vitest";
import type { TWidget } from "../contract/dashboards";
import { WIDGET_ALERT_MESSAGES as M, ZWidgetAlertInput } from "./contract";
import { widgetAlertMetrics } from "./metrics";

const valid = { metric: "a.sessions", condition: "below", value: 1500, recipients: "ops@client.example" };

/** The 422 fields zod reports, as the server turns them into `errors`. */
function fieldsOf(input: unknown): Record<string, string[]> {
  const result = ZWidgetAlertInput.safeParse(input);
  if (result.success) return {};
  const fields: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".");
    fields[key] = [...(fields[key] ?? []), issue.message];
  }
  return fields;
}

describe("ZWidgetAlertInput", () => {
  it("accepts a threshold rule and fills the defaults", () => {
    expect(ZWidgetAlertInput.parse(valid)).toEqual({
      metric: "a.sessions",
      condition: "below",
      value: 1500,
      direction: "either",
      recipients: ["ops@client.example"],
      paused: false,
    });
  });

  it("drops the value of an anomaly rule", () => {
    expect(ZWidgetAlertInput.parse({ ...valid, condition: "anomaly", direction: "down" })).toMatchObject({
      condition: "anomaly",
      value: null,
      direction: "down",
    });
  });

  it("drops the value of an off-pace rule (the goal is its threshold)", () => {
    expect(ZWidgetAlertInput.parse({ ...valid, condition: "offPace", value: null })).toMatchObject({
      condition: "offPace",
      value: null,
    });
  });

  it.each([
    ["no metric", { ...valid, metric: "  " }, { metric: [M.metricRequired] }],
    ["an unknown condition", { ...valid, condition: "equals" }, { condition: [M.condition] }],
    ["a threshold without a value", { ...valid, value: null }, { value: [M.valueRequired] }],
    ["a value as text", { ...valid, value: "many" }, { value: [M.valueNumber] }],
    ["a change of 0 %", { ...valid, condition: "changeBy", value: 0 }, { value: [M.percentMin] }],
    ["a change over the limit", { ...valid, condition: "changeBy", value: 5000 }, { value: [M.percentMax] }],
    ["an unknown direction", { ...valid, direction: "sideways" }, { direction: [M.direction] }],
    ["no recipients", { ...valid, recipients: "" }, { recipients: ["The recipients field is required."] }],
    [
      "six recipients",
      { ...valid, recipients: "a@x.io, b@x.io, c@x.io, d@x.io, e@x.io, f@x.io" },
      { recipients: ["You can add at most 5 recipients."] },
    ],
    ["a bad address", { ...valid, recipients: "ops@" }, { recipients: ["'ops@' is not a valid email address."] }],
    ["paused as text", { ...valid, paused: "yes" }, { paused: [M.paused] }],
  ])("refuses %s with the field's message", (_name, input, fields) => {
    expect(fieldsOf(input)).toEqual(fields);
  });
});

const instance = (prefix: string, inputs: Record<string, unknown>) => ({
  id: `i-${prefix}`,
  type: "demo.analytics",
  prefix,
  sourceId: "s1",
  config: "demo.analytics",
  currency: null,
  accounts: [],
  inputs,
  metricsOptions: {},
});

describe("widgetAlertMetrics", () => {
  const base = {
    id: "w1",
    realTime: false,
    order: 0,
    hash: "h",
    width: 6,
    height: 2,
    title: "Traffic",
    description: null,
  };

  it("keys each instance's metrics and calculated metrics as the widget's data columns", () => {
    const widget = {
      ...base,
      nature: "interactive",
      instances: [
        instance("a", {
          metrics: ["sessions", "users"],
          calculatedMetrics: [{ id: "cm1", name: "Pages per user", type: "number", expression: "pageviews / users" }],
        }),
        instance("a", { metrics: ["sessions"] }),
      ],
    } as unknown as TWidget;
    expect(widgetAlertMetrics(widget).map((metric) => [metric.key, metric.name, metric.instance])).toEqual([
      ["a.sessions", null, 0],
      ["a.users", null, 0],
      ["a.cm1", "Pages per user", 0],
      // A repeated prefix is made unique as the data path does.
      ["b.sessions", null, 1],
    ]);
  });

  it("has none for a passive widget", () => {
    expect(widgetAlertMetrics({ ...base, nature: "passive" } as unknown as TWidget)).toEqual([]);
  });
});
