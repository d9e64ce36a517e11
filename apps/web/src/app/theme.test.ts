import fs from "node:fs";
import { DEFAULT_THEME } from "@mantine/core";
import { describe, expect, it } from "vitest";
import { contrastRatio, readableOn, TEXT_CONTRAST } from "./contrast";
import { READABLE_DIMMED, readableLightColors, theme } from "./theme";

const { gray } = DEFAULT_THEME.colors;
const palettes = { ...DEFAULT_THEME.colors, ...theme.colors } as Record<string, readonly string[]>;

describe("contrastRatio (WCAG 2)", () => {
  it.each([
    ["#000000", "#ffffff", 21],
    ["#ffffff", "#ffffff", 1],
    ["#868e96", "#ffffff", 3.32],
  ])("%s on %s is %d:1", (foreground, background, expected) => {
    expect(contrastRatio(foreground, background)).toBeCloseTo(expected, 2);
  });
});

describe("readableOn", () => {
  it("keeps a colour that already reads", () => {
    expect(readableOn("#495057", ["#ffffff"])).toBe("#495057");
  });
  it("darkens one that does not, just past the minimum", () => {
    const darker = readableOn("#868e96", ["#ffffff", gray[1]]);
    expect(contrastRatio(darker, gray[1])).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(contrastRatio(darker, gray[1])).toBeLessThan(TEXT_CONTRAST + 0.6);
  });
});

describe("theme text colours read at 4.5:1 (axe colour-contrast)", () => {
  it("dimmed text on white cards and on the grey page and fills", () => {
    for (const background of ["#ffffff", gray[0], gray[1], gray[2]]) {
      expect(contrastRatio(READABLE_DIMMED, background)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    }
  });

  it("every palette's light- and outline-variant text", () => {
    const variables = readableLightColors();
    for (const [name, shades] of Object.entries(palettes)) {
      const light = variables[`--mantine-color-${name}-light-color`];
      const outline = variables[`--mantine-color-${name}-outline`];
      for (const background of ["#ffffff", shades[0], shades[1], shades[2]]) {
        expect(contrastRatio(light, background), `${name} light on ${background}`).toBeGreaterThanOrEqual(
          TEXT_CONTRAST,
        );
      }
      expect(contrastRatio(outline, "#ffffff"), `${name} outline`).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    }
  });

  it("the brand colour on links and filled buttons", () => {
    const brand = palettes.brand[6];
    expect(contrastRatio(brand, "#ffffff")).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(contrastRatio(brand, gray[0])).toBeGreaterThanOrEqual(TEXT_CONTRAST);
  });
});

describe("the static stylesheet's fonts", () => {
  // The server-painted header of a public dashboard is drawn before React sets Mantine's variables: with
  // another font its text would change size under the reader, and Lighthouse would take the app's redraw
  // as a later, larger paint.
  it("global.css declares the theme's font families", () => {
    const css = fs.readFileSync(new URL("./global.css", import.meta.url), "utf8").replace(/\s+/g, " ");
    const normal = (family: string | undefined) => String(family).replace(/'/g, '"');
    expect(css).toContain(`--mantine-font-family: ${normal(theme.fontFamily)};`);
    expect(css).toContain(`--mantine-font-family-headings: ${normal(theme.headings?.fontFamily)};`);
  });
});
