import type { TWidget, TWidgetAlert } from "@app/core";
import { describe, expect, it } from "vitest";
import {
  alertFormErrors,
  alertMetricOptions,
  alertPayload,
  alertSummary,
  defaultAlertValues,
  valueLabel,
  valuesOf,
} from "./form-model";

const widget = {
  id: "w1",
  nature: "interactive",
  title: "Key figures",
  instances: [
    {
      id: "i1",
      type: "demo.analytics",
      prefix: "a",
      sourceId: "s1",
      config: "demo.analytics",
      currency: null,
      accounts: [],
      inputs: {
        metrics: ["sessions", "avg_session_duration"],
        calculatedMetrics: [
          { id: "cm1", name: "Pages per session", type: "number", expression: "pageviews / sessions" },
        ],
      },
      metricsOptions: {},
    },
  ],
} as unknown as TWidget;

const alert: TWidgetAlert = {
  id: "al1",
  dashboard_id: "d1",
  widget_id: "w1",
  metric: "a.sessions",
  condition: "below",
  value: 1500,
  direction: "either",
  recipients: ["ceo@client.example", "cmo@client.example"],
  paused: false,
  snoozed_until: null,
  snoozed: false,
  state: null,
  opened_at: null,
  resolved_at: null,
  last_message: null,
  last_evaluated_at: null,
  created_at: "2026-11-20T10:00:00.000Z",
  updated_at: "2026-11-20T10:00:00.000Z",
};

describe("alertMetricOptions", () => {
  it("labels each metric by the widget's data, else by the calculated metric's name or its key in words", () => {
    expect(alertMetricOptions(widget, [{ key: "a.sessions", label: "Sessions" }])).toEqual([
      { value: "a.sessions", label: "Sessions" },
      { value: "a.avg_session_duration", label: "Avg session duration" },
      { value: "a.cm1", label: "Pages per session" },
    ]);
  });

  it("starts a new rule on the first metric, 'falls below'", () => {
    expect(defaultAlertValues(alertMetricOptions(widget))).toMatchObject({ metric: "a.sessions", condition: "below" });
  });
});

describe("alertPayload and alertFormErrors", () => {
  const base = { ...defaultAlertValues([{ value: "a.sessions" }]), recipients: "ceo@client.example" };

  it.each([
    ["a threshold typed with a thousands separator", { value: "1,500" }, { value: 1500, direction: "either" }, {}],
    ["an empty value: the server says it is required", { value: "" }, { value: null }, {}],
    ["text instead of a number", { value: "many" }, { value: null }, { value: "The value must be a number." }],
    [
      "an anomaly rule drops its value",
      { condition: "anomaly", value: "12", direction: "down" },
      { value: null, direction: "down" },
      {},
    ],
    [
      "an off-pace rule drops its value and its direction",
      { condition: "offPace", value: "12", direction: "down" },
      { value: null, direction: "either" },
      {},
    ],
    [
      "a threshold ignores a direction",
      { condition: "above", value: "3", direction: "down" },
      { value: 3, direction: "either" },
      {},
    ],
    [
      "a change keeps its direction",
      { condition: "changeBy", value: "20", direction: "down" },
      { value: 20, direction: "down" },
      {},
    ],
  ] as const)("%s", (_name, patch, payload, errors) => {
    const values = { ...base, ...patch };
    expect(alertPayload(values)).toMatchObject(payload);
    expect(alertFormErrors(values)).toEqual(errors);
  });

  it("round-trips a saved alert through the form", () => {
    expect(alertPayload(valuesOf(alert))).toEqual({
      metric: "a.sessions",
      condition: "below",
      value: 1500,
      direction: "either",
      recipients: "ceo@client.example, cmo@client.example",
      paused: false,
    });
  });

  it.each([
    ["below", "Value"],
    ["changeBy", "Change (%)"],
    ["anomaly", null],
    ["offPace", null],
  ] as const)("names the value field of %s", (condition, label) => {
    expect(valueLabel(condition)).toBe(label);
  });
});

describe("alertSummary", () => {
  const labelOf = () => "Sessions";
  it.each([
    ["never checked", {}, "Not checked yet", "gray"],
    ["open", { state: "open", last_evaluated_at: "2026-11-21T10:00:00Z" }, "Open", "red"],
    ["resolved", { state: "resolved", last_evaluated_at: "2026-11-21T10:00:00Z" }, "OK", "green"],
    ["paused wins over open", { state: "open", paused: true }, "Paused", "gray"],
    [
      "snoozed",
      { state: "open", snoozed: true, snoozed_until: "2026-11-27T09:30:00.000Z" },
      "Snoozed until Nov 27, 2026 10:30",
      "yellow",
    ],
  ] as const)("%s", (_name, patch, status, tone) => {
    expect(alertSummary({ ...alert, ...patch }, labelOf, "Europe/Berlin")).toEqual({
      rule: "Sessions below 1,500",
      status,
      tone,
    });
  });
});
