import { describe, expect, it } from "vitest";
import { MAGNITUDE_SPLIT, rightAxisSeries } from "./value-axes";

const s = (key: string, values: Array<number | null>, format = "number") => ({ key, format, values });

describe("rightAxisSeries", () => {
  it.each([
    ["one series: one axis", [s("clicks", [10, 20])], []],
    ["similar sizes: one axis", [s("sessions", [100, 140]), s("users", [70, 98])], []],
    ["just under the split ratio: one axis", [s("a", [MAGNITUDE_SPLIT - 1]), s("b", [1])], []],
    ["at the split ratio: two axes", [s("a", [MAGNITUDE_SPLIT]), s("b", [1])], ["b"]],
    [
      "clicks beside impressions: the small one goes right",
      [s("clicks", [30, 42]), s("impressions", [1200, 1500])],
      ["impressions"],
    ],
    ["impressions first: clicks go right", [s("impressions", [1200, 1500]), s("clicks", [30, 42])], ["clicks"]],
    [
      "groups split at the widest gap",
      [s("impressions", [5000]), s("reach", [3000]), s("clicks", [90]), s("conversions", [4])],
      ["clicks", "conversions"],
    ],
    ["negative values count by size", [s("a", [-2000, 10]), s("b", [5, 8])], ["b"]],
    ["the comparison period counts too", [s("a", [1, 2, 500]), s("b", [300])], []],
    ["all-zero or N/A series stay left", [s("a", [0, 0]), s("b", [null, null]), s("c", [5000])], []],
    [
      "money beside counts: by format",
      [s("clicks", [30]), s("cost", [25], "money"), s("impressions", [900])],
      ["cost"],
    ],
    [
      "different formats win over sizes",
      [s("cost", [25], "money"), s("clicks", [30]), s("impressions", [9000])],
      ["clicks", "impressions"],
    ],
  ])("%s", (_name, series, expected) => {
    expect([...rightAxisSeries(series)].sort()).toEqual([...expected].sort());
  });
});
