import { describe, expect, it } from "vitest";
import { chartParts } from "./chart-parts";
import type { ChartOption } from "./chart-types";

describe("chartParts", () => {
  it.each<[string, ChartOption, string[]]>([
    ["line", { series: [{ type: "line" }, { type: "line" }] }, ["line"]],
    [
      "line and bar with a marker",
      { series: [{ type: "bar" }, { type: "line" }], graphic: [] },
      ["bar", "graphic", "line"],
    ],
    ["pie", { series: { type: "pie" } }, ["pie"]],
    ["radar", { radar: { indicator: [] }, series: [{ type: "radar" }] }, ["radar"]],
    ["gauge", { series: [{ type: "gauge" }] }, ["gauge"]],
    ["dataset", { dataset: { source: [] }, series: [{ type: "bar" }] }, ["bar", "dataset"]],
    ["nothing", {}, []],
  ])("%s", (_name, option, parts) => {
    expect(chartParts(option)).toEqual(parts);
  });

  it("a series type without a loader is an error, not a blank chart", () => {
    expect(() => chartParts({ series: [{ type: "scatter" }] } as unknown as ChartOption)).toThrow(/scatter/);
  });
});
