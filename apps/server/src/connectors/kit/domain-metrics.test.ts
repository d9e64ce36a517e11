import { describe, expect, it } from "vitest";
import { siteHost, tableDomainValues } from "./domain-metrics";

describe("siteHost", () => {
  it.each([
    ["https://www.acme.com", "acme.com"],
    ["https://acme.com/", "acme.com"],
    ["acme.com", "acme.com"],
    ["www.Acme.com.", "acme.com"],
    ["http://shop.acme.com", "shop.acme.com"],
    ["https://acme.com/blog/", null],
    ["", null],
    ["https://", null],
  ])("%s is %s", (address, expected) => {
    expect(siteHost(address)).toBe(expected);
  });
});

describe("tableDomainValues", () => {
  it("gives each finite number of a mapped column per day row, and nothing else", () => {
    const table = {
      dimension: { key: "date", label: "Date", kind: "date" as const },
      metrics: [
        { key: "position", label: "Position", format: "number" as const },
        { key: "clicks", label: "Clicks", format: "number" as const },
        { key: "unmapped", label: "Other", format: "number" as const },
      ],
      rows: [
        { dimension: "2026-11-01", values: [4.5, 10, 3] },
        { dimension: "2026-11-02", values: [null, Number.NaN, 1] },
        // A total row or a non-date dimension is no day.
        { dimension: null, values: [1, 2, 3] },
      ],
      totals: [null, null, null],
    };
    expect(
      tableDomainValues(table, [
        ["position", "averagePosition"],
        ["clicks", "clicks"],
      ]),
    ).toEqual([
      { metric: "averagePosition", day: "2026-11-01", value: 4.5 },
      { metric: "clicks", day: "2026-11-01", value: 10 },
    ]);
  });
});
