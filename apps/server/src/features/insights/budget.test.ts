import { DIMENSION_PARAM } from "@app/core";
import { buildInstance } from "@app/core/widgets/test-fixtures";
import { describe, expect, it } from "vitest";
import { CONNECTORS, lagDaysOf, type SourceHandle, widgetType } from "../../connectors";
import { notePropertyQuota } from "../../connectors/googleAnalytics/quota";
import { searchConsoleQuotas } from "../../connectors/searchConsole";
import { createMemoryRateLimitStore } from "../../infra/rate-limit-store";
import { extraDimension, optionalQueryAllowed } from "./budget";

const GA4 = { type: "googleAnalytics.ga4", inputs: { property: "1001", profile: "2001", metrics: ["sessions"] } };
const GSC = { type: "searchConsole.performance", inputs: { property: "https://acme.com/", metrics: ["clicks"] } };
const META = { type: "facebookAds.insights", inputs: { property: "act_42", metrics: ["spend"] } };
const DEMO = { type: "demo.analytics", inputs: { property: "harbor-outfitters", metrics: ["sessions"] } };
const ADS = { type: "googleAds.report", inputs: { property: "1", reportType: "campaign", metrics: ["clicks"] } };

type Spec = Required<Pick<NonNullable<Parameters<typeof buildInstance>[0]>, "type" | "inputs">>;
const instances = (...specs: Spec[]) =>
  specs.map((spec, index) => buildInstance({ id: `i${index}`, prefix: "abcd"[index], ...spec }));

describe("the connectors' insight dimensions", () => {
  // Every declared type exists and offers the declared values in its dimension picker (GA4's comes from
  // the property's metadata: its channel dimension is checked against the fake in connectors/googleAnalytics/insights.test.ts).
  const declared = CONNECTORS.flatMap((connector) =>
    Object.entries(connector.insightDimensions ?? {}).map(([type, dimensions]) => ({ connector, type, dimensions })),
  );
  it.each(declared.map((entry) => [entry.connector.key, entry.type, entry] as const))(
    "%s %s",
    async (_k, type, entry) => {
      const config = entry.connector.widgetTypes.find((candidate) => candidate.type === type);
      expect(config).toBeDefined();
      if (entry.connector.key === "googleAnalytics") return;
      const param = config?.params.find((candidate) => candidate.key === DIMENSION_PARAM);
      const offered =
        param?.options ??
        (await entry.connector.options("dimensions", {
          source: {} as SourceHandle,
          form: { type, reportType: "campaign" },
        }));
      const values = offered.map((option) => option.value);
      for (const value of Object.values(entry.dimensions)) expect(values).toContain(value);
    },
  );

  it.each<[string, ReturnType<typeof instances>, "date" | "breakdown", string | null]>([
    ["GA4's channel", instances(GA4), "breakdown", "sessionDefaultChannelGroup"],
    ["Search Console's device", instances(GSC), "breakdown", "device"],
    ["Google Ads' campaign", instances(ADS), "breakdown", "campaign"],
    ["Facebook Ads' campaign", instances(META), "breakdown", "campaign"],
    ["Demo's channel", instances(DEMO), "breakdown", "channel"],
    ["two instances agreeing on the date", instances(GA4, GSC), "date", "date"],
    ["two instances disagreeing: none", instances(GA4, GSC), "breakdown", null],
    ["a connector without a table: none", instances({ type: "csv.sheet", inputs: {} }), "date", null],
  ])("extraDimension: %s", (_name, list, kind, expected) => {
    expect(extraDimension(list, kind)).toBe(expected);
  });

  it.each<[string, ReturnType<typeof instances>, number]>([
    ["Demo: none", instances(DEMO), 0],
    ["GA4: a day", instances(GA4), 1],
    ["Search Console: two days", instances(GSC), 2],
    ["the longest of a widget's instances", instances(GA4, GSC), 2],
    // Widget alerts judged Meta widgets 28 days late when they used settlingDays as the lag.
    ["Facebook Ads: a day, not the 28 days Meta keeps revising", instances(META), 1],
    ["Instagram: two days (numbers up to 48 hours late)", instances({ type: "instagram.insights", inputs: {} }), 2],
    ["Business Profile: three days", instances({ type: "googleMyBusiness.performance", inputs: {} }), 3],
    // Settling (a week of late attribution) is not lag: yesterday's sends are there to judge.
    ["Klaviyo: none", instances({ type: "klaviyo.report", inputs: {} }), 0],
  ])("lagDaysOf: %s", (_name, list, expected) => {
    expect(lagDaysOf(list)).toBe(expected);
  });
});

describe("optionalQueryAllowed: the budget of insights' extra queries", () => {
  const clean = { notices: [] };
  it.each<
    [
      string,
      ReturnType<typeof instances>,
      (counters: ReturnType<typeof createMemoryRateLimitStore>) => Promise<unknown>,
      { notices?: { instanceId: string; asOf: string; message: string }[] },
      boolean,
    ]
  >([
    ["Demo asks no provider", instances(DEMO), async () => {}, clean, true],
    ["GA4 with its tokens open", instances(GA4), async () => {}, clean, true],
    [
      "GA4 down to the reserve kept for viewers",
      instances(GA4),
      (counters) =>
        notePropertyQuota(
          counters,
          "2001",
          "core",
          { tokensPerDay: { consumed: 170_000, remaining: 30_000 } },
          Date.now(),
        ),
      clean,
      false,
    ],
    [
      "Meta holding the ad account",
      instances(META),
      (counters) => counters.hit("provider:meta:hold:key:account:42", 60_000),
      clean,
      false,
    ],
    [
      "Meta holding another account",
      instances(META),
      (counters) => counters.hit("provider:meta:hold:key:account:7", 60_000),
      clean,
      true,
    ],
    [
      "Search Console with most of the site's minute used",
      instances(GSC),
      async (counters) => {
        const [site] = searchConsoleQuotas({ id: "", account: null }, "https://acme.com/");
        for (let hit = 0; hit < site.max * 0.8; hit += 1)
          await counters.hit(`provider:search-console:${site.key}`, 60_000);
      },
      clean,
      false,
    ],
    [
      "a widget whose own answer came from the store (provider held or failing)",
      instances(ADS),
      async () => {},
      { notices: [{ instanceId: "i0", asOf: "2026-11-26T10:00:00.000Z", message: "Google Ads quota reached" }] },
      false,
    ],
    [
      "one instance down to its reserve holds the whole widget",
      instances(DEMO, GA4),
      (counters) =>
        notePropertyQuota(
          counters,
          "2001",
          "core",
          { tokensPerHour: { consumed: 39_000, remaining: 1_000 } },
          Date.now(),
        ),
      clean,
      false,
    ],
  ])("%s", async (_name, list, prepare, answer, expected) => {
    const counters = createMemoryRateLimitStore();
    await prepare(counters);
    expect(await optionalQueryAllowed(counters, list, answer)).toBe(expected);
  });

  it("an unknown widget type is never asked", async () => {
    expect(widgetType("gone.type")).toBeUndefined();
    expect(
      await optionalQueryAllowed(createMemoryRateLimitStore(), instances({ type: "gone.type", inputs: {} }), {}),
    ).toBe(false);
  });
});
