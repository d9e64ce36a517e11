import { LRUCache } from "lru-cache";
import { describe, expect, it } from "vitest";
import { AppError } from "../../infra/errors";
import { ProviderError } from "../http/errors";
import { cachedCurrency } from "./currency";
import { domainOf } from "./domain";
import { daysOf, startOfDayIn, text, trimmedText } from "./inputs";
import { type MetricDeclaration, metricHeader, requireMetrics } from "./metrics";
import { followCursor, followOffset, numberedPages } from "./paging";
import { cpc, cpm, ctr, ratio } from "./ratios";
import { storedToken } from "./token";

const errorsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError && error.code === "validation" ? error.fields : error;
  }
  return null;
};

describe("startOfDayIn", () => {
  it.each([
    ["2025-06-01", "UTC", "2025-06-01T00:00:00+00:00"],
    // New Zealand's winter (+12:00) and summer (+13:00): the day starts the evening before in UTC.
    ["2025-06-01", "Pacific/Auckland", "2025-05-31T12:00:00+00:00"],
    ["2025-01-01", "Pacific/Auckland", "2024-12-31T11:00:00+00:00"],
    // Los Angeles on daylight time (-07:00), and the day its clocks go back (it starts on daylight time).
    ["2025-07-06", "America/Los_Angeles", "2025-07-06T07:00:00+00:00"],
    ["2025-11-02", "America/Los_Angeles", "2025-11-02T07:00:00+00:00"],
    ["2025-11-03", "America/Los_Angeles", "2025-11-03T08:00:00+00:00"],
  ])("%s in %s starts at %s", (day, zone, instant) => {
    expect(startOfDayIn(day, zone)).toBe(instant);
  });
});

describe("domainOf", () => {
  it.each([
    [{ domain: "acme.com" }, "", "acme.com"],
    [{ domain: "https://www.Acme.com/blog?x=1" }, "", "www.acme.com"],
    [{ domain: "  http://shop.acme.co.uk#top " }, "", "shop.acme.co.uk"],
    [{}, "Acme.com", "acme.com"],
    [{ domain: "   " }, "https://acme.com/", "acme.com"],
    [{ domain: 42 }, "acme.com", "acme.com"],
  ])("%j with account %j is %s", (inputs, account, host) => {
    expect(domainOf(inputs, { account })).toBe(host);
  });

  it.each([
    [{ domain: "acme" }, ""],
    [{}, ""],
    [{ domain: "acme .com" }, ""],
    [{ domain: "https://" }, "x"],
  ])("%j with account %j is the domain field's 422", (inputs, account) => {
    expect(errorsOf(() => domainOf(inputs, { account }))).toEqual({
      domain: ["The domain field is required (a domain such as acme.com)."],
    });
  });
});

describe("metricHeader", () => {
  const cost: MetricDeclaration = { key: "cpc", label: "CPC", format: "money", lowerIsBetter: true };
  const clicks: MetricDeclaration = { key: "clicks", label: "Clicks", format: "number" };
  const usd: MetricDeclaration = { key: "cost", label: "Cost", format: "money", currency: "USD" };
  it.each<[MetricDeclaration, string | null | undefined, object]>([
    [cost, "EUR", { key: "cpc", label: "CPC", format: "money", currency: "EUR", lowerIsBetter: true }],
    [cost, null, { key: "cpc", label: "CPC", format: "money", currency: null, lowerIsBetter: true }],
    [cost, undefined, { key: "cpc", label: "CPC", format: "money", lowerIsBetter: true }],
    [clicks, "EUR", { key: "clicks", label: "Clicks", format: "number" }],
    [usd, undefined, { key: "cost", label: "Cost", format: "money", currency: "USD" }],
    [usd, "EUR", { key: "cost", label: "Cost", format: "money", currency: "USD" }],
    [{ ...clicks, lowerIsBetter: false }, null, { key: "clicks", label: "Clicks", format: "number" }],
  ])("%j with account currency %j", (metric, currency, header) => {
    expect(metricHeader(metric, currency)).toStrictEqual(header);
  });
});

describe("requireMetrics", () => {
  const byKey = new Map([
    ["clicks", { key: "clicks" }],
    ["spend", { key: "spend" }],
  ]);
  it.each([
    [["spend", "clicks"], null],
    [[], { metrics: ["The metrics field is required."] }],
    ["clicks", { metrics: ["The metrics field is required."] }],
    [["", ""], { metrics: ["The metrics field is required."] }],
    [["clicks", "reach", "x"], { metrics: ["TikTok has no metric reach, x."] }],
  ])("%j → %j", (value, errors) => {
    expect(errorsOf(() => requireMetrics(value, byKey, "TikTok"))).toEqual(errors);
  });
  it("keeps the chosen order", () => {
    expect(requireMetrics(["spend", "clicks"], byKey, "TikTok")).toEqual([{ key: "spend" }, { key: "clicks" }]);
  });
});

describe("ad ratios from summed parts", () => {
  it.each([
    ["ctr", ctr(25, 1000), 2.5],
    ["ctr without impressions", ctr(3, 0), null],
    ["cpc", cpc(50, 20), 2.5],
    ["cpc without clicks", cpc(50, 0), null],
    ["cpm", cpm(12, 4000), 3],
    ["cpm without impressions", cpm(12, 0), null],
    ["ratio with a negative bottom", ratio(1, -1), null],
    ["ratio scaled", ratio(1, 4, 100), 25],
  ])("%s", (_name, value, expected) => {
    expect(value).toBe(expected);
  });
  it("the period's CTR is from the sums, not the mean of the days' CTRs", () => {
    const days = [
      { clicks: 1, impressions: 10 },
      { clicks: 10, impressions: 1000 },
    ];
    const sum = (key: "clicks" | "impressions") => days.reduce((total, day) => total + day[key], 0);
    expect(ctr(sum("clicks"), sum("impressions"))).toBeCloseTo(1.0891, 4);
  });
});

describe("paging", () => {
  it.each([
    ["stops when no cursor follows", ["a", "b", undefined], 10, [undefined, "a", "b"]],
    ["stops at the page bound", ["a", "b", "c", "d"], 2, [undefined, "a"]],
    ["an empty cursor ends it", [""], 10, [undefined]],
    ["null ends it", [null], 10, [undefined]],
  ])("followCursor %s", async (_name, cursors, maxPages, asked) => {
    const seen: (string | undefined)[] = [];
    const pages = await followCursor(
      maxPages as number,
      async (cursor) => {
        seen.push(cursor);
        return { next: (cursors as (string | null | undefined)[])[seen.length - 1] };
      },
      (page) => page.next,
    );
    expect(seen).toEqual(asked);
    expect(pages).toHaveLength(seen.length);
  });

  it.each([
    ["reads until the total", [2, 2, 1], 5, 10, [0, 2, 4], 5],
    ["an empty page ends it", [2, 0], 9, 10, [0, 2], 2],
    ["stops at the page bound", [2, 2, 2], 9, 2, [0, 2], 4],
  ])("followOffset %s", async (_name, sizes, total, maxPages, offsets, count) => {
    const seen: number[] = [];
    const items = await followOffset(maxPages as number, async (offset) => {
      seen.push(offset);
      const size = (sizes as number[])[seen.length - 1] ?? 0;
      return { items: Array.from({ length: size }, (_, index) => offset + index), total: total as number };
    });
    expect(seen).toEqual(offsets);
    expect(items).toEqual(Array.from({ length: count as number }, (_, index) => index));
  });

  it.each([
    ["one page", 1, 5, [1]],
    ["every page", 3, 5, [1, 2, 3]],
    ["at most the bound", 9, 4, [1, 2, 3, 4]],
    ["a count of 0 still reads page 1", 0, 4, [1]],
  ])("numberedPages %s", async (_name, count, maxPages, asked) => {
    let known = 1;
    const seen: number[] = [];
    const pages = await numberedPages(
      maxPages as number,
      async (page) => {
        seen.push(page);
        if (page === 1) known = count as number;
        return page;
      },
      () => known,
    );
    expect(seen).toEqual(asked);
    expect(pages).toEqual(asked);
  });
});

describe("cachedCurrency", () => {
  it.each([
    ["asks once, then the cache answers", "EUR", 1, "EUR"],
    ["an answer without a currency is not cached", null, 2, null],
    ["an empty currency is not cached either", "", 2, ""],
  ])("%s", async (_name, answer, asks, currency) => {
    const cache = new LRUCache<string, string>({ max: 10 });
    let count = 0;
    const ask = async () => {
      count += 1;
      return answer;
    };
    expect(await cachedCurrency(cache, "acct", ask)).toBe(currency);
    expect(await cachedCurrency(cache, "acct", ask)).toBe(currency);
    expect(count).toBe(asks);
  });
});

describe("storedToken", () => {
  it("reads the stored key", () => {
    expect(storedToken({ token: "k-1" }, "someTracker")).toBe("k-1");
  });
  it.each([[{}], [{ token: "" }]])("%j is an auth failure of the provider, not a request without a key", (creds) => {
    const error = errorsOf(() => storedToken(creds, "someTracker"));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: "someTracker", kind: "auth" });
  });
});

describe("inputs", () => {
  it.each([
    ["acme", "acme", "acme"],
    [" acme ", " acme ", "acme"],
    [3, "", ""],
    [undefined, "", ""],
  ])("text(%j)", (value, plain, trimmed) => {
    expect(text(value)).toBe(plain);
    expect(trimmedText(value)).toBe(trimmed);
  });
  it.each([
    ["2026-10-30", "2026-11-02", ["2026-10-30", "2026-10-31", "2026-11-01", "2026-11-02"]],
    ["2026-03-28", "2026-03-30", ["2026-03-28", "2026-03-29", "2026-03-30"]],
    ["2026-10-05", "2026-10-05", ["2026-10-05"]],
    ["2026-10-06", "2026-10-05", []],
  ])("daysOf(%s, %s)", (start, end, days) => {
    expect(daysOf(start, end)).toEqual(days);
  });
});
