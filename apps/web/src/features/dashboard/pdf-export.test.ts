import { describe, expect, it } from "vitest";
import { type PdfButtonState, pdfButtonView, pdfClick, pdfPollDelay } from "./pdf-export";

describe("the PDF button (docs/product.md §4, §5)", () => {
  it.each<[PdfButtonState, ReturnType<typeof pdfClick>]>([
    ["idle", "start"],
    ["loading", "none"],
    ["ready", "download"],
    ["failed", "none"],
  ])("a click in state %s does %s", (state, action) => {
    expect(pdfClick(state)).toBe(action);
  });

  it.each<[PdfButtonState, number, number, ReturnType<typeof pdfButtonView>]>([
    ["idle", 10, 60, { label: "PDF", disabled: false, tooltip: null }],
    ["loading", 10, 60, { label: "PDF", disabled: true, tooltip: "Making the PDF…" }],
    ["ready", 10, 60, { label: "Download PDF", disabled: false, tooltip: null }],
    ["failed", 10, 60, { label: "PDF", disabled: true, tooltip: "The PDF could not be made." }],
    // Above the server's limit the button is disabled with the spec's tooltip, whatever the state.
    [
      "idle",
      61,
      60,
      { label: "PDF", disabled: true, tooltip: "PDF export is disabled for dashboards with more than 60 widgets." },
    ],
    ["idle", 60, 60, { label: "PDF", disabled: false, tooltip: null }],
  ])("state %s with %i widgets (max %i)", (state, count, max, view) => {
    expect(pdfButtonView(state, count, max)).toEqual(view);
  });

  it.each<[number, number]>([
    [0, 300], // the first check comes soon: a warm server's small PDF is ready in under a second
    [1, 450],
    [2, 675],
    [3, 1013],
    [4, 1519],
    [5, 2000], // then at most every 2 s
    [20, 2000],
  ])("check %i waits %i ms", (attempt, ms) => {
    expect(pdfPollDelay(attempt)).toBe(ms);
  });
});
