import { describe, expect, it } from "vitest";
import { isFilled } from "./filled";
import { normaliseNumberInput } from "./number-input";

describe("isFilled (docs/product.md §5 field-filled rule)", () => {
  it.each([
    ["non-empty string", "a", true],
    ["empty string", "", false],
    ["zero", 0, true],
    ["number", 12.5, true],
    ["NaN", Number.NaN, false],
    ["array with truthy item", [0, "x"], true],
    ["array of falsy items", [0, "", null], false],
    ["empty array", [], false],
    ["null", null, false],
    ["undefined", undefined, false],
    ["boolean true", true, false],
    ["object", { a: 1 }, false],
  ])("%s → %s", (_label, value, expected) => {
    expect(isFilled(value)).toBe(expected);
  });
});

describe("normaliseNumberInput (docs/product.md §5 number input)", () => {
  it.each([
    ["whole number kept", 7, {}, 7],
    ["fraction rounds up", 7.2, {}, 8],
    ["rounds up to multiple of step", 7, { step: 5 }, 10],
    ["exact multiple kept", 10, { step: 5 }, 10],
    ["below step becomes step", 2, { step: 5 }, 5],
    ["zero becomes step", 0, { step: 1 }, 1],
    ["negative becomes step", -4, { step: 2 }, 2],
    ["clamped to max", 120, { max: 100 }, 100],
    ["clamped to max after step rounding", 99, { step: 10, max: 95 }, 95],
    ["string parsed", "12", {}, 12],
    ["min respected", 3, { min: 5 }, 5],
  ] as const)("%s", (_label, raw, limits, expected) => {
    expect(normaliseNumberInput(raw, limits)).toBe(expected);
  });

  it.each([["abc"], [""], [null], [Number.POSITIVE_INFINITY]])("%s is not a number → null", (raw) => {
    expect(normaliseNumberInput(raw)).toBeNull();
  });
});
