import {
  computeChange,
  DEFAULT_ALERT_RULES,
  DOMAIN_METRIC_KEYS,
  type DomainMetricKey,
  evaluateRule,
  parseDay,
  shiftDay,
} from "@app/core";
import { describe, expect, it } from "vitest";
import { manualClock } from "../../../infra/clock";
import { DEMO_DROP_DAYS, DEMO_LABEL, demoProvider, demoValue } from "./demo";

// A Thursday: yesterday (the latest complete day) is Wednesday 2026-11-25.
const clock = manualClock("2026-11-26T11:00:00Z");
const LATEST = "2026-11-25";

function series(domain: string, metric: DomainMetricKey, days = 60) {
  return Array.from({ length: days }, (_, index) => {
    const day = shiftDay(LATEST, index - days + 1);
    return { day, value: demoValue(domain, metric, day, LATEST) };
  });
}

describe("the demo metrics provider", () => {
  const provider = demoProvider(clock);

  it("is labelled as demo data and covers the whole catalogue", () => {
    expect(provider.label).toBe(DEMO_LABEL);
    expect(provider.metrics).toEqual(DOMAIN_METRIC_KEYS);
    expect(provider.latestCompleteDay()).toBe(LATEST);
  });

  it("answers every covered metric for each day of the range, never after the latest complete day", async () => {
    const values = await provider.fetch({ companyId: "c1", domain: "acme.com", from: "2026-11-20", to: "2026-11-30" });
    expect(new Set(values.map((value) => value.day))).toEqual(
      new Set(["2026-11-20", "2026-11-21", "2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25"]),
    );
    expect(values).toHaveLength(6 * DOMAIN_METRIC_KEYS.length);
    for (const value of values) expect(Number.isFinite(value.value) && value.value >= 0).toBe(true);
  });

  it("is deterministic per domain and differs between domains", async () => {
    const request = { companyId: "c1", domain: "acme.com", from: "2026-10-01", to: "2026-11-25" };
    expect(await provider.fetch(request)).toEqual(
      await demoProvider(manualClock("2026-11-26T23:00:00Z")).fetch(request),
    );
    expect(series("acme.com", "clicks")).not.toEqual(series("globex.io", "clicks"));
  });

  it.each([["clicks"], ["sessions"]] as const)("%s are lower at weekends", (metric) => {
    const values = series("acme.com", metric, 56);
    const mean = (weekend: boolean) => {
      const picked = values.filter((point) => [0, 6].includes(parseDay(point.day).getDay()) === weekend);
      return picked.reduce((sum, point) => sum + point.value, 0) / picked.length;
    };
    expect(mean(true)).toBeLessThan(mean(false) * 0.8);
  });

  it.each([
    ["domainRating", 0, 100],
    ["referringDomains", 1, 1e6],
    ["averagePosition", 1, 100],
    ["ctr", 0, 100],
  ] as const)("%s drifts slowly within its range", (metric, min, max) => {
    const values = series("acme.com", metric).map((point) => point.value);
    for (const value of values) expect(value >= min && value <= max).toBe(true);
    // Drift, not noise: neighbouring days are close, and the 30-day change is not nothing.
    const steps = values.slice(1).map((value, index) => Math.abs(value - values[index]));
    expect(Math.max(...steps)).toBeLessThan(Math.max(...values) * 0.1);
    expect(values[values.length - 1]).not.toBe(values[values.length - 31]);
  });

  it("gives 7- and 30-day changes that differ", () => {
    const points = series("acme.com", "referringDomains");
    const week = computeChange("referringDomains", points, LATEST, 7);
    const month = computeChange("referringDomains", points, LATEST, 30);
    expect(week.change).not.toBeNull();
    expect(month.change).not.toBe(week.change);
  });

  it("scripts a 40 % drop over the last 7 days for a domain starting with drop-", () => {
    const before = shiftDay(LATEST, -DEMO_DROP_DAYS);
    const first = shiftDay(LATEST, -DEMO_DROP_DAYS + 1);
    // The same series as any domain would have, except the last 7 days: 40 % lower (position 40 % higher).
    const base = (metric: DomainMetricKey, day: string) => demoValue("drop-acme.com", metric, day, "2030-01-01");
    expect(demoValue("drop-acme.com", "clicks", before, LATEST)).toBe(base("clicks", before));
    expect(demoValue("drop-acme.com", "clicks", first, LATEST)).toBe(Math.round(base("clicks", first) * 0.6));
    expect(demoValue("drop-acme.com", "averagePosition", LATEST, LATEST)).toBeCloseTo(
      base("averagePosition", LATEST) * 1.4,
      1,
    );
    expect(computeChange("clicks", series("drop-acme.com", "clicks"), LATEST, 7).tone).toBe("bad");
    expect(computeChange("domainRating", series("drop-acme.com", "domainRating"), LATEST, 7).tone).toBe("bad");
    expect(computeChange("averagePosition", series("drop-acme.com", "averagePosition"), LATEST, 7).tone).toBe("bad");
  });

  // The browser tests run on the real clock: a drop- domain's clicks and sessions alerts must fire whatever
  // the day (over 5 dropped days, drop-live.com's clicks fell only 19.2 % with 2026-11-29 as the latest day).
  it.each(["drop-live.com", "drop-shop.com", "drop-cyberdyne.com", "drop-aperture.science", "drop-acme.com"])(
    "opens the default clicks and sessions alerts of %s with any day of two years as the latest",
    (domain) => {
      const rules = DEFAULT_ALERT_RULES.filter((rule) => rule.id === "clicks-drop" || rule.id === "sessions-drop");
      const missed: string[] = [];
      for (let index = 0; index < 2 * 365; index += 1) {
        const latest = shiftDay("2026-01-01", index);
        for (const rule of rules) {
          const points = Array.from({ length: 14 }, (_, back) => {
            const day = shiftDay(latest, back - 13);
            return { day, value: demoValue(domain, rule.metric, day, latest) };
          });
          if (!evaluateRule(rule, points, latest).failing) missed.push(`${rule.id} ${latest}`);
        }
      }
      expect(missed).toEqual([]);
    },
  );
});
