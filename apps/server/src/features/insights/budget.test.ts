import { DIMENSION_PARAM } from "@app/core";
import { buildInstance } from "@app/core/widgets/test-fixtures";
import { describe, expect, it } from "vitest";
import { CONNECTORS, lagDaysOf, type SourceHandle, widgetType } from "../../connectors";
import { createMemoryRateLimitStore } from "../../infra/rate-limit-store";
import { extraDimension, optionalQueryAllowed } from "./budget";

/**
 * The rules over whatever the registry declares, naming no connector (scripts/check-connector-boundaries.mjs).
 * Each connector's own figures (its lag, its prewarm hook's limits) are tested in its folder, in
 * `insight-budget.test.ts`.
 */
type Spec = Required<Pick<NonNullable<Parameters<typeof buildInstance>[0]>, "type" | "inputs">>;
const instances = (...specs: Spec[]) =>
  specs.map((spec, index) => buildInstance({ id: `i${index}`, prefix: "abcd"[index], ...spec }));
const DEMO = { type: "demo.analytics", inputs: { property: "harbor-outfitters", metrics: ["sessions"] } };

const declared = CONNECTORS.flatMap((connector) =>
  Object.entries(connector.insightDimensions ?? {}).map(([type, dimensions]) => ({ connector, type, dimensions })),
);
/** One declared type of each connector declaring any (Demo declares several). */
const oneTypeEach = declared.filter(
  (entry, index) => declared.findIndex((other) => other.connector === entry.connector) === index,
);

const withTypes = CONNECTORS.filter((connector) => connector.widgetTypes.length > 0);

/** Thrown by the handle below: the options were asked of the provider, which needs a connected source. */
const NEEDS_SOURCE = new Error("needs a connected source");
/** A source handle that refuses every read, so options that need a real source say so. */
const noSource = new Proxy({} as SourceHandle, {
  get() {
    throw NEEDS_SOURCE;
  },
});

describe("the connectors' insight dimensions", () => {
  // Every declared type exists and offers the declared values in its dimension picker. A picker filled
  // from the source's own metadata (GA4's property) needs a connected source: its connector's folder
  // checks it against the fake (its insights.test.ts).
  it.each(declared.map((entry) => [entry.connector.key, entry.type, entry] as const))(
    "%s %s",
    async (_k, type, entry) => {
      const config = entry.connector.widgetTypes.find((candidate) => candidate.type === type);
      expect(config).toBeDefined();
      const param = config?.params.find((candidate) => candidate.key === DIMENSION_PARAM);
      let offered = param?.options;
      if (!offered) {
        try {
          offered = await entry.connector.options("dimensions", {
            source: noSource,
            form: { type, reportType: "campaign" },
          });
        } catch (error) {
          if (error === NEEDS_SOURCE && param?.remote) return;
          throw error;
        }
      }
      const values = offered.map((option) => option.value);
      for (const value of Object.values(entry.dimensions)) expect(values).toContain(value);
    },
  );

  it.each(declared.map((entry) => [entry.type, entry] as const))(
    "extraDimension: %s gives its declared date and breakdown",
    (type, entry) => {
      const list = instances({ type, inputs: {} });
      expect(extraDimension(list, "date")).toBe(entry.dimensions.date ?? null);
      expect(extraDimension(list, "breakdown")).toBe(entry.dimensions.breakdown ?? null);
    },
  );

  it("extraDimension: two connectors' instances agreeing on the date give it; disagreeing on the breakdown, none", () => {
    const [first, second] = oneTypeEach.filter((entry) => entry.connector.key !== "demo");
    expect(first.dimensions.date).toBe(second.dimensions.date);
    expect(first.dimensions.breakdown).not.toBe(second.dimensions.breakdown);
    const list = instances({ type: first.type, inputs: {} }, { type: second.type, inputs: {} });
    expect(extraDimension(list, "date")).toBe(first.dimensions.date);
    expect(extraDimension(list, "breakdown")).toBeNull();
  });

  it("extraDimension: a connector without a table: none", () => {
    expect(extraDimension(instances({ type: "csv.sheet", inputs: {} }), "date")).toBeNull();
  });

  it.each(withTypes.map((connector) => [connector.key, connector] as const))(
    "lagDaysOf: %s's instance waits its connector's lag",
    (_key, connector) => {
      expect(lagDaysOf(instances({ type: connector.widgetTypes[0].type, inputs: {} }))).toBe(connector.lagDays ?? 0);
    },
  );

  it("lagDaysOf: Demo none; the longest of a widget's instances", () => {
    expect(lagDaysOf(instances(DEMO))).toBe(0);
    const lagged = withTypes.filter((connector) => (connector.lagDays ?? 0) > 0);
    const [shorter, longer] = [...lagged].sort((a, b) => (a.lagDays ?? 0) - (b.lagDays ?? 0)).slice(-2);
    expect(shorter.lagDays).not.toBe(longer.lagDays);
    const list = instances(
      { type: shorter.widgetTypes[0].type, inputs: {} },
      { type: longer.widgetTypes[0].type, inputs: {} },
    );
    expect(lagDaysOf(list)).toBe(longer.lagDays);
  });
});

describe("optionalQueryAllowed: the budget of insights' extra queries", () => {
  it("Demo asks no provider", async () => {
    expect(await optionalQueryAllowed(createMemoryRateLimitStore(), instances(DEMO), { notices: [] })).toBe(true);
  });

  it("a widget whose own answer came from the store (provider held or failing), on a connector without a prewarm hook", async () => {
    const connector = withTypes.find(
      (candidate) => candidate.key !== "demo" && candidate.available && !candidate.prewarmAllowed,
    );
    expect(connector).toBeDefined();
    const list = instances({
      type: connector?.widgetTypes[0].type ?? "",
      inputs: { property: "1", metrics: ["clicks"] },
    });
    const counters = createMemoryRateLimitStore();
    expect(await optionalQueryAllowed(counters, list, { notices: [] })).toBe(true);
    const notices = [{ instanceId: "i0", asOf: "2026-11-26T10:00:00.000Z", message: "quota reached" }];
    expect(await optionalQueryAllowed(counters, list, { notices })).toBe(false);
  });

  it("an unknown widget type is never asked", async () => {
    expect(widgetType("gone.type")).toBeUndefined();
    expect(
      await optionalQueryAllowed(createMemoryRateLimitStore(), instances({ type: "gone.type", inputs: {} }), {}),
    ).toBe(false);
  });
});
