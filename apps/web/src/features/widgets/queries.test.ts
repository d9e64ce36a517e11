import type { TInteractiveWidget } from "@app/core";
import { hashKey, QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { type WidgetRange, widgetDataQuery } from "./queries";

function widgetOf(id: string, inputs: Record<string, unknown>, metricsOptions = {}): TInteractiveWidget {
  return {
    id,
    nature: "interactive",
    realTime: false,
    order: 0,
    hash: "h",
    width: 4,
    height: 1,
    title: id,
    description: null,
    format: "table",
    percent: false,
    hiddenChange: false,
    hiddenHighlight: false,
    rowsLimit: 10,
    orderBy: { column: "dimension", dir: "asc" },
    formatOptions: {},
    instances: [
      {
        id: "i1",
        type: "demo.analytics",
        prefix: "a",
        sourceId: "s1",
        config: "demo.analytics",
        currency: null,
        accounts: [],
        // Keys out of order on purpose: the hash sorts them.
        inputs: inputs as TInteractiveWidget["instances"][number]["inputs"],
        metricsOptions,
      },
    ],
  };
}

const range: WidgetRange = {
  startDate: "2026-11-01",
  endDate: "2026-11-28",
  compareStartDate: null,
  compareEndDate: null,
  timezone: "Europe/Paris",
};
const custom: WidgetRange = { ...range, compareStartDate: "2025-11-01", compareEndDate: "2025-11-28" };

describe("widgetDataQuery's key hash", () => {
  const cases = [
    {
      name: "a member's widget",
      widget: widgetOf("w1", { metrics: ["sessions"], dimension: "date" }),
      range,
      access: null,
    },
    {
      name: "a custom comparison, metric options left out",
      widget: widgetOf("w2", { z: 1, a: { y: 2, b: 3 } }, { "a.sessions": { cloaked: true } }),
      range: custom,
      access: null,
    },
    {
      name: "a public viewer's, with a password",
      widget: widgetOf("w3", { metrics: ["users"] }),
      range,
      access: { permalink: "p1", password: "secret" },
    },
  ];
  it.each(cases)("$name: React Query's own hash of the key, the same again", ({ widget, range, access }) => {
    const options = widgetDataQuery(widget, range, access);
    const hash = options.queryKeyHashFn?.(options.queryKey);
    expect(hash).toBe(hashKey(options.queryKey));
    // Asked again for the same widget object (a card's next render): the same text.
    const again = widgetDataQuery(widget, range, access);
    expect(again.queryKeyHashFn?.(again.queryKey)).toBe(hash);
  });

  it("hashes any other key it is asked about as React Query would (an exact find matches only its own widget)", () => {
    const first = widgetDataQuery(cases[0].widget, range);
    const second = widgetDataQuery(cases[1].widget, custom);
    expect(first.queryKeyHashFn?.(second.queryKey)).toBe(hashKey(second.queryKey));
    const client = new QueryClient();
    // The query as a card's observer makes it: with this hash function.
    client.getQueryCache().build(client, { queryKey: first.queryKey, queryKeyHashFn: first.queryKeyHashFn });
    expect(client.getQueryCache().find({ queryKey: second.queryKey, exact: true })).toBeUndefined();
    expect(client.getQueryCache().find({ queryKey: first.queryKey, exact: true })?.queryHash).toBe(
      hashKey(first.queryKey),
    );
  });
});
