import { defaultCompareRange, formatChange, formatNumber, shiftDay } from "@app/core";
import { afterAll, expect, it } from "vitest";
import { fakesForFile } from "../../../test/fakes/app";
import { describeEachDb } from "../../../test/harness";
import { lineOf, singleNumber } from "../../features/insights/test-helpers";
import { fakeValue, googleFake } from "../google/fake";

const fakes = fakesForFile(afterAll, () => ({ google: googleFake() }));
const calls = async () => (await fakes.current()).calls;
const google = async () => (await fakes.current()).parts.google;

/** A week the fake's sessions fall in (its numbers follow the day of the month), long settled. */
const RANGE = { startDate: "2026-10-01", endDate: "2026-10-07", timezone: "UTC" };
const COMPARISON = defaultCompareRange(RANGE.startDate, RANGE.endDate);

/**
 * The runReport bodies the fake GA4 got for a property, by the dimension they asked (none: ""), from the
 * `from`th on (one fake serves both databases' runs of this file).
 */
async function reportsTo(profile: string, from = 0): Promise<string[]> {
  return (await calls())
    .filter((call) => call.path === `/v1beta/properties/${profile}:runReport`)
    .map((call) => (JSON.parse(call.body) as { dimensions?: { name: string }[] }).dimensions?.[0]?.name ?? "")
    .slice(from);
}

/** The fake's sessions of a property over a range, as GA4 totals them, and its channel rows' rounding. */
function fakeSessions(profile: string, range: { startDate: string; endDate: string }) {
  let total = 0;
  for (let day = range.startDate; day <= range.endDate; day = shiftDay(day, 1)) {
    total += fakeValue("sessions", day.replaceAll("-", ""), profile);
  }
  // The fake splits a total over its channels as half, a third and a quarter (fakes/google.ts, runReport).
  return {
    total,
    channels: {
      "Organic Search": Math.round(total / 2),
      Direct: Math.round(total / 3),
      Referral: Math.round(total / 4),
    },
  };
}

const signed = (value: number) => `${value < 0 ? "\u2212" : "+"}${formatNumber(Math.abs(value))}`;

describeEachDb(
  "insights of GA4 widgets: history and breakdown within the quota budget",
  (env) => {
    it("GA4 with healthy quota: history and the channel breakdown are asked once, and the line names the channels", async () => {
      const { client, permalink } = await singleNumber(env(), "googleAnalytics", "googleAnalytics.ga4", {
        property: "1002",
        profile: "2005",
        metrics: ["sessions"],
      });
      const start = (await reportsTo("2005")).length;
      const line = await lineOf(client, permalink, RANGE);
      // The widget's own query, its 8-week history by date, its breakdown by channel: each asked once.
      const asked = await reportsTo("2005", start);
      expect(asked.filter((dimension) => dimension === "date")).toHaveLength(1);
      expect(asked.filter((dimension) => dimension === "sessionDefaultChannelGroup").length).toBeGreaterThan(0);

      const now = fakeSessions("2005", RANGE);
      const before = fakeSessions("2005", COMPARISON);
      const delta = now.total - before.total;
      const percent = formatChange(now.total, before.total) as number;
      const channel = (name: keyof typeof now.channels) => signed(now.channels[name] - before.channels[name]);
      const named = Object.values(now.channels).reduce((sum, value) => sum + value, 0);
      const namedBefore = Object.values(before.channels).reduce((sum, value) => sum + value, 0);
      expect(line).toBe(
        `Sessions down ${formatNumber(Math.abs(percent), { format: "percent" })} (${signed(delta)}) vs Sep 24 \u2013 Sep 30; ` +
          `Organic Search contributed ${channel("Organic Search")}, Direct ${channel("Direct")}, Referral ${channel("Referral")}, ` +
          `other ${signed(delta - (named - namedBefore))}.`,
      );

      // A second view costs the provider nothing: every one of those queries is stored.
      const sent = asked.length;
      expect(await lineOf(client, permalink, RANGE)).toBe(line);
      expect(await reportsTo("2005", start)).toHaveLength(sent);
    });

    it("GA4 with the property down to its reserve: neither history nor breakdown is asked, the fixed rule speaks", async () => {
      // 15 % of the day's tokens left: the widget's own answer reports it, and the reserve is for viewers.
      (await google()).setRemainingTokens("2006", { tokensPerDay: 30_000 });
      const { client, permalink } = await singleNumber(env(), "googleAnalytics", "googleAnalytics.ga4", {
        property: "1002",
        profile: "2006",
        metrics: ["sessions"],
      });
      const start = (await reportsTo("2006")).length;
      const line = await lineOf(client, permalink, RANGE);
      const asked = await reportsTo("2006", start);
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.every((dimension) => dimension === "")).toBe(true);
      const now = fakeSessions("2006", RANGE).total;
      const before = fakeSessions("2006", COMPARISON).total;
      const percent = formatChange(now, before) as number;
      // Down 18 %: over the fixed 10 %, said without contributors.
      expect(line).toBe(
        `Sessions down ${formatNumber(Math.abs(percent), { format: "percent" })} (${signed(now - before)}) vs Sep 24 \u2013 Sep 30.`,
      );
    });
  },
  fakes.env,
);
