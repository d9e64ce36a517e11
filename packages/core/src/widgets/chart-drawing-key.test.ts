import { describe, expect, it } from "vitest";
import { chartDrawingKeyText } from "./chart-drawing-key";

const size = { width: 400, height: 300 };

describe("chartDrawingKeyText", () => {
  it.each([
    [
      "keys in another order",
      { a: 1, b: { c: 2, d: [3, { e: 4, f: 5 }] } },
      { b: { d: [3, { f: 5, e: 4 }], c: 2 }, a: 1 },
      true,
    ],
    ["a trip through JSON", { a: 1, b: null, c: "x" }, JSON.parse('{"c":"x","b":null,"a":1}'), true],
    ["another value", { a: 1 }, { a: 2 }, false],
    ["arrays in another order", { a: [1, 2] }, { a: [2, 1] }, false],
    ["NaN against null", { a: Number.NaN }, { a: null }, false],
    ["Infinity against -Infinity", { a: Number.POSITIVE_INFINITY }, { a: Number.NEGATIVE_INFINITY }, false],
  ])("%s: the same text is %s", (_name, one, other, same) => {
    expect(chartDrawingKeyText(one, size) === chartDrawingKeyText(other, size)).toBe(same);
  });

  it("another size is another key", () => {
    expect(chartDrawingKeyText({ a: 1 }, size)).not.toBe(chartDrawingKeyText({ a: 1 }, { width: 401, height: 300 }));
  });
});
