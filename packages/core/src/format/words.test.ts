import { describe, expect, it } from "vitest";
import { LANGUAGES, localeOf, PSEUDO_LANGUAGE } from "../i18n/languages";
import { formatNumber } from "./number";
import { notAvailableIn, notSetIn } from "./words";

describe("the formatters' own words in a dashboard's language", () => {
  it.each([
    ["en-US", "N/A", "(not set)"],
    ["de", "k. A.", "(nicht gesetzt)"],
    ["fr", "N/D", "(non défini)"],
    ["sl", "n. p.", "(ni nastavljeno)"],
    [undefined, "N/A", "(not set)"],
    ["xx", "N/A", "(not set)"],
  ])("%s: %s, %s", (locale, notAvailable, notSet) => {
    expect(notAvailableIn(locale)).toBe(notAvailable);
    expect(notSetIn(locale)).toBe(notSet);
    expect(formatNumber(null, { locale })).toBe(notAvailable);
    expect(formatNumber(Number.NaN, { format: "money", locale })).toBe(notAvailable);
  });

  it("every language's locale has its own words, English's and the pseudo-locale's are English", () => {
    for (const language of LANGUAGES.filter((tag) => tag !== "en")) {
      expect(notAvailableIn(localeOf(language)), language).not.toBe("N/A");
      expect(notSetIn(localeOf(language)), language).not.toBe("(not set)");
    }
    expect(notAvailableIn(localeOf(PSEUDO_LANGUAGE))).toBe("N/A");
  });
});
