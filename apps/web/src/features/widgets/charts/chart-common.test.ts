import { describe, expect, it } from "vitest";
import { changeHtml } from "./chart-common";

describe("changeHtml (chart tooltips)", () => {
  it.each([
    [12.5, false, true, "good", "var(--dash-up)", "▲ 12.5%"],
    [-4, false, true, "bad", "var(--dash-down)", "▼ 4%"],
    [12.5, true, true, "bad", "var(--dash-down)", "▲ 12.5%"],
    [-4, true, true, "good", "var(--dash-up)", "▼ 4%"],
    [-4, true, false, "good", "var(--dash-muted)", "▼ 4%"],
    [0, true, true, "flat", "var(--dash-muted)", "0%"],
    [null, false, true, "flat", "var(--dash-muted)", "N/A"],
  ] as const)("change %s, lowerIsBetter %s, highlight %s → %s", (change, lower, highlight, tone, colour, text) => {
    const html = changeHtml(change, lower, highlight);
    expect(html).toContain(`data-tone="${tone}"`);
    expect(html).toContain(`color:${colour}`);
    expect(html).toContain(`>${text}</span>`);
  });
});
