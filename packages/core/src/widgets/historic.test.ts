import { describe, expect, it } from "vitest";
import { articlesForRange, type HistoricArticle, isArticleComplete } from "./historic";

const article = (header: string, startDate: string, endDate: string): HistoricArticle => ({
  file: null,
  header,
  content: "",
  description: "",
  range: { startDate, endDate },
});

const march = article("March launch", "2026-03-01", "2026-03-31");
const q2 = article("Q2 campaign", "2026-04-01", "2026-06-30");
const may = article("May outage", "2026-05-10", "2026-05-12");

describe("articlesForRange", () => {
  it.each([
    ["inside one article", "2026-03-05", "2026-03-20", ["March launch"]],
    ["overlapping two, newest first", "2026-03-25", "2026-04-05", ["Q2 campaign", "March launch"]],
    ["touching an end day", "2026-03-31", "2026-03-31", ["March launch"]],
    ["covering nested ones", "2026-05-01", "2026-05-31", ["May outage", "Q2 campaign"]],
    ["before every article", "2026-01-01", "2026-02-28", []],
    ["after every article", "2026-07-01", "2026-07-31", []],
  ])("%s", (_label, start, end, headers) => {
    expect(articlesForRange([march, q2, may], start, end).map((a) => a.header)).toEqual(headers);
  });
});

describe("isArticleComplete", () => {
  it.each([
    ["header and range", march, true],
    ["blank header", article("  ", "2026-03-01", "2026-03-31"), false],
    ["missing end", article("X", "2026-03-01", ""), false],
    ["end before start", article("X", "2026-03-31", "2026-03-01"), false],
  ])("%s → %s", (_label, value, expected) => {
    expect(isArticleComplete(value)).toBe(expected);
  });
});
