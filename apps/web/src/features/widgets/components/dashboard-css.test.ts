import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMPACT_WIDTH, GRID } from "../card-size";
import { summaryPerRow } from "./SummaryWidget";

/**
 * The stylesheet's part of a card not yet measured (the server-rendered public view, the first render):
 * what the card decides in script once measured, the CSS must decide alike before, or the page shifts
 * when the app starts.
 */

interface Rule {
  /** The enclosing at-rule's prelude ("" at the top level). */
  at: string;
  selectors: string[];
  declarations: Record<string, string>;
}

/** The style rules of a plain stylesheet, one at-rule deep (enough for dashboard.css). */
function rulesOf(css: string): Rule[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
  const rules: Rule[] = [];
  let at = "";
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === "{") {
      const prelude = text.slice(start, index).trim();
      start = index + 1;
      if (prelude.startsWith("@")) {
        at = prelude;
        continue;
      }
      const end = text.indexOf("}", index);
      const declarations: Record<string, string> = {};
      for (const declaration of text.slice(index + 1, end).split(";")) {
        const colon = declaration.indexOf(":");
        if (colon > 0) declarations[declaration.slice(0, colon).trim()] = declaration.slice(colon + 1).trim();
      }
      rules.push({ at, selectors: prelude.split(",").map((selector) => selector.trim()), declarations });
      index = end;
      start = end + 1;
    } else if (char === "}") {
      at = "";
      start = index + 1;
    }
  }
  return rules;
}

const rules = rulesOf(fs.readFileSync(path.join(import.meta.dirname, "../../dashboard/dashboard.css"), "utf8"));

function rule(selector: string, at = ""): Rule {
  const found = rules.find((candidate) => candidate.at === at && candidate.selectors.includes(selector));
  if (!found) throw new Error(`no rule for ${selector}${at ? ` in ${at}` : ""}`);
  return found;
}

const body = rule(".dash-card-body").declarations;
/** The body's left and right padding (`padding: 6px 16px 14px`). */
const bodyPadding = Number.parseFloat(body.padding.split(/\s+/)[1]);

describe("narrow tables before the card is measured (container query on the card body)", () => {
  const container = rules.find((candidate) => candidate.at.startsWith("@container dash-card-body"));

  it("the card body is the named inline-size container the query asks", () => {
    expect(body["container-type"]).toBe("inline-size");
    expect(body["container-name"]).toBe("dash-card-body");
    expect(container).toBeDefined();
  });

  it("is narrow exactly when WidgetCard's measured border box is under COMPACT_WIDTH", () => {
    // A container query sees the content box: the card's width less the body's padding.
    expect(container?.at).toBe(`@container dash-card-body (width < ${COMPACT_WIDTH - 2 * bodyPadding}px)`);
  });

  it("applies the very rules of [data-compact], selector for selector", () => {
    const asCompact = (selector: string) =>
      selector.replace(".dash-card-body .dash-table", ".dash-table[data-compact]");
    const mirrored = rules
      .filter((candidate) => candidate.at === container?.at)
      .flatMap((candidate) => candidate.selectors.map((selector) => [asCompact(selector), candidate.declarations]));
    const compact = rules
      .filter(
        (candidate) =>
          candidate.at === "" && candidate.selectors.some((selector) => selector.includes("[data-compact]")),
      )
      .flatMap((candidate) => candidate.selectors.map((selector) => [selector, candidate.declarations]));
    expect(compact.length).toBeGreaterThan(4);
    expect(Object.fromEntries(mirrored)).toEqual(Object.fromEntries(compact));
  });
});

describe("summary columns before the body is measured (.dash-summary's auto-fit)", () => {
  const summary = rule(".dash-summary").declarations;
  const tile = Number(/^repeat\(auto-fit, minmax\((\d+)px, 1fr\)\)$/.exec(summary["grid-template-columns"])?.[1]);
  const columnGap = Number.parseFloat(summary.gap.split(/\s+/)[1]);

  /** Columns the grid makes for `count` figures in a body `width` wide (border box, as the card measures). */
  function cssColumns(count: number, width: number): number {
    const content = width - 2 * bodyPadding;
    return Math.max(1, Math.min(count, Math.floor((content + columnGap) / (tile + columnGap))));
  }

  it.each([
    ["a 390 px phone", 364, 2],
    ["a 1-wide card at 1280 px", 292, 2],
    ["a 2-wide card at 1280 px", 602, 4],
    ["a tablet's full-width card", 710, 5],
    ["a full-width card at 1280 px with the sidebar", 934, 6],
    ["a full-width card at 1280 px", 1222, 6],
  ])("%s (body %s px): %s a row, as once measured", (_, width, columns) => {
    expect(cssColumns(6, width)).toBe(columns);
    expect(summaryPerRow(6, width)).toBe(columns);
  });

  it("never makes more columns than figures", () => {
    expect(cssColumns(2, 1222)).toBe(2);
    expect(summaryPerRow(2, 1222)).toBe(2);
  });

  it("differs from the measured count only in the first 12 px of each step, by one", () => {
    for (let width = 100; width <= 1600; width++) {
      const measured = summaryPerRow(6, width);
      const css = cssColumns(6, width);
      if (css !== measured) {
        expect([width, measured - css]).toEqual([width, 1]);
        expect(width % 132).toBeLessThan(12);
      }
    }
  });
});

describe("the card sizes the server draws a member's charts ahead at (card-size.ts GRID) are the stylesheet's", () => {
  const px = (value: string) => Number.parseFloat(value);
  const paddings = (value: string) => value.split(/\s+/).map(px);

  it("the canvas: the sidebar beside it, its padding, the grid's gaps and rows", () => {
    const root = rule(".dash-root").declarations;
    expect(px(root["--dash-sidebar-width"])).toBe(GRID.sidebarWidth);
    expect(px(root["--dash-row-height"])).toBe(GRID.rowHeight);
    expect(px(root["--dash-gap"])).toBe(GRID.gap);
    expect(rule(".dash-sidebar", `@media (max-width: ${GRID.sidebarOverlayMaxViewport}px)`).declarations.position).toBe(
      "fixed",
    );
    expect(paddings(rule(".dash-main").declarations.padding)[1]).toBe(GRID.mainPadding);
    expect(paddings(rule(".dash-main", `@media (max-width: ${GRID.phoneMaxViewport}px)`).declarations.padding)[1]).toBe(
      GRID.phoneMainPadding,
    );
  });

  it("the columns: 4, then 2 and 1 as the canvas narrows, and a phone's rows", () => {
    expect(rule(".dash-grid").declarations["grid-template-columns"]).toBe("repeat(4, minmax(0, 1fr))");
    expect(
      rule(".dash-grid", `@container dash-main (max-width: ${GRID.twoColumnsMaxWidth}px)`).declarations[
        "grid-template-columns"
      ],
    ).toBe("repeat(2, minmax(0, 1fr))");
    const phone = `@container dash-main (max-width: ${GRID.oneColumnMaxWidth}px)`;
    expect(rule(".dash-grid", phone).declarations["grid-template-columns"]).toBe("minmax(0, 1fr)");
    GRID.phoneCellHeights.forEach((height, index) => {
      expect(px(rule(`.dash-cell[data-h="${index + 1}"]`, phone).declarations["min-height"])).toBe(height);
    });
  });

  it("the card: its border, its header's height and its body's padding", () => {
    expect(px(rule(".dash-card").declarations.border)).toBe(GRID.cardBorder);
    expect(px(rule(".dash-card-header").declarations["min-height"])).toBe(GRID.headerHeight);
    const [top, right, bottom] = paddings(body.padding);
    expect({ top, right, bottom, left: right }).toEqual(GRID.bodyPadding);
  });
});
