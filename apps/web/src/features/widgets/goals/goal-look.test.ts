import { dashboardColours, EMPTY_DASHBOARD_STYLES } from "@app/core";
import { describe, expect, it } from "vitest";
import { contrastRatio, TEXT_CONTRAST } from "../../../app/contrast";

/**
 * A goal's status ("on pace", "8% short") is written in the theme's up or down colour, and its bar is
 * filled with it (dashboard.css, .dash-goal): both must read on the theme's cards, as text (4.5:1) and
 * as a graphic against the card (3:1, WCAG 1.4.11). The words carry the meaning; the colour repeats it.
 */
const PLAIN = EMPTY_DASHBOARD_STYLES;

describe("goal colours on the dashboard's cards", () => {
  it.each([
    ["light", dashboardColours(PLAIN)],
    ["dark", dashboardColours({ ...PLAIN, theme: "dark" })],
  ])("%s theme", (_theme, colours) => {
    const card = colours.variables["--dash-card"];
    for (const tone of ["--dash-up", "--dash-down"]) {
      expect(contrastRatio(colours.variables[tone], card), tone).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    }
  });
});
