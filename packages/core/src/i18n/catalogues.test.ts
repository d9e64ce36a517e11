import { parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { CATALOGUES, translatorFor } from "./catalogues";
import { LANGUAGE_NAMES, LANGUAGES, localeOf, PSEUDO_LANGUAGE, preferredLanguage } from "./languages";
import { loadMessages } from "./load";
import { pseudoMessage } from "./pseudo";

/** The argument names of an ICU message and their kinds ("count:plural", "title:text"), sorted. */
function argumentsOf(message: string): string[] {
  const found = new Set<string>();
  const kinds = ["literal", "text", "number", "date", "time", "select", "plural", "pound", "tag"];
  const visit = (elements: ReturnType<typeof parse>) => {
    for (const element of elements) {
      if (element.type !== TYPE.literal && element.type !== TYPE.pound && "value" in element) {
        found.add(`${element.value}:${kinds[element.type]}`);
      }
      if ("options" in element) for (const option of Object.values(element.options)) visit(option.value);
      if ("children" in element) visit(element.children);
    }
  };
  visit(parse(message));
  return [...found].sort();
}

const english = CATALOGUES.en;

describe("catalogues (docs/decisions.md, 'Report languages')", () => {
  it.each(LANGUAGES.filter((language) => language !== "en"))("%s has exactly English's keys", (language) => {
    const keys = Object.keys(CATALOGUES[language]).sort();
    expect(
      keys.filter((key) => !(key in english)),
      "keys English does not have",
    ).toEqual([]);
    expect(
      Object.keys(english).filter((key) => !(key in CATALOGUES[language])),
      "keys missing",
    ).toEqual([]);
  });

  it.each(LANGUAGES)("every %s message parses and takes the arguments English's does", (language) => {
    for (const [key, message] of Object.entries(CATALOGUES[language])) {
      const source = english[key as keyof typeof english];
      expect(argumentsOf(message), `${language} ${key}`).toEqual(argumentsOf(source));
      expect(message.trim(), `${language} ${key} is empty`).not.toBe("");
    }
  });

  it.each(LANGUAGES.filter((language) => language !== "en"))(
    "%s is a translation, not a copy of English",
    (language) => {
      const same = Object.entries(CATALOGUES[language]).filter(
        ([key, message]) => english[key as keyof typeof english] === message,
      );
      // A few words are the same in both ("Total", "Filter: {filters}"); a copied catalogue is not.
      expect(same.length).toBeLessThan(Object.keys(english).length / 5);
    },
  );

  it("each language is named in its own name", () => {
    expect(LANGUAGE_NAMES.de).toBe("Deutsch");
    expect(LANGUAGE_NAMES.sl).toBe("Slovenščina");
    expect(Object.keys(LANGUAGE_NAMES)).toEqual([...LANGUAGES]);
  });

  it.each(LANGUAGES)("the lazily loaded %s catalogue is the one the server holds", async (language) => {
    expect(await loadMessages(language)).toEqual(CATALOGUES[language]);
  });
});

describe("translator", () => {
  it.each([
    ["en", "range.last_30_days", {}, "Last 30 Days"],
    ["de", "range.last_30_days", {}, "Letzte 30 Tage"],
    ["de", "range.versus", { period: "1. Nov. – 14. Nov." }, "vs. 1. Nov. – 14. Nov."],
    ["sl", "widget.noData", {}, "Za to obdobje ni podatkov"],
    ["xx", "widget.noData", {}, "No data for this period"],
    [null, "widget.total", {}, "Total"],
  ] as const)("%s %s → %s", (language, key, values, expected) => {
    expect(translatorFor(language).t(key, values)).toBe(expected);
  });

  it.each([
    ["en", "en-US"],
    ["de", "de"],
    [PSEUDO_LANGUAGE, "en-US"],
    [null, "en-US"],
  ] as const)("the locale of %s is %s", (language, locale) => {
    expect(localeOf(language)).toBe(locale);
  });
});

describe("preferredLanguage: a page without a dashboard in the reader's browser's language", () => {
  it.each([
    ["de-AT,de;q=0.9,en;q=0.8", "de"],
    ["fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"],
    ["ja,sl;q=0.5", "sl"],
    ["en;q=0.2, nl;q=0.8", "nl"],
    ["pt-BR", "pt"],
    ["de;q=0, es", "es"],
    ["ja, zh-CN;q=0.9", null],
    ["*", null],
    ["", null],
    [undefined, null],
  ] as const)("%s → %s", (header, expected) => {
    expect(preferredLanguage(header)).toBe(expected);
  });
});

describe("pseudo-locale", () => {
  it.each([
    ["Total", "[Ţóţáļ ~~]"],
    ["Filter: {filters}", "[Ƒíļţéŕ: {filters} ~~~]"],
    ["{count, plural, one {# day} other {# days}}", "[{count, plural, one {# ðáý} other {# ðáýš}} ~~~]"],
    ["Ask the dashboard's owner", "[Ášķ ţĥé ðášĥƀóáŕð'š óŵñéŕ ~~~~~~~~~]"],
  ])("%s → %s", (message, expected) => {
    expect(pseudoMessage(message)).toBe(expected);
  });

  it("keeps every message's arguments, so it formats as English does", async () => {
    const pseudo = await loadMessages(PSEUDO_LANGUAGE);
    for (const [key, message] of Object.entries(pseudo)) {
      expect(argumentsOf(message), key).toEqual(argumentsOf(english[key as keyof typeof english]));
    }
    expect(translatorFor(PSEUDO_LANGUAGE).t("widget.filter", { filters: "Country is DE" })).toBe(
      "[Ƒíļţéŕ: Country is DE ~~~]",
    );
  });
});
