import { DEFAULT_LANGUAGE, isLanguage, type Language } from "../i18n/languages";

/**
 * The two words a formatter itself returns, per language: what a value that cannot be shown reads as
 * (docs/product.md §8, "N/A") and a dimension value the provider left empty ("(not set)"). They live
 * here rather than in the message catalogues because the formatters know only a locale (formatNumber's
 * `locale`, i18n/languages.ts localeOf), and every number of a client's page passes through them.
 */
const NOT_AVAILABLE_WORDS: Record<Language, string> = {
  en: "N/A",
  de: "k. A.",
  fr: "N/D",
  es: "N/D",
  it: "N/D",
  nl: "n.v.t.",
  pt: "N/D",
  sl: "n. p.",
};

const NOT_SET_WORDS: Record<Language, string> = {
  en: "(not set)",
  de: "(nicht gesetzt)",
  fr: "(non défini)",
  es: "(sin definir)",
  it: "(non impostato)",
  nl: "(niet ingesteld)",
  pt: "(não definido)",
  sl: "(ni nastavljeno)",
};

/** The language of a locale localeOf made ("en-US" is English, "de" German); English otherwise. */
function languageOfLocale(locale: string | undefined): Language {
  const tag = locale?.split("-")[0];
  return isLanguage(tag) ? tag : DEFAULT_LANGUAGE;
}

/** "N/A" in the locale's language ("k. A.", "N/D"). */
export function notAvailableIn(locale?: string): string {
  return NOT_AVAILABLE_WORDS[languageOfLocale(locale)];
}

/** "(not set)" in the locale's language ("(nicht gesetzt)"). */
export function notSetIn(locale?: string): string {
  return NOT_SET_WORDS[languageOfLocale(locale)];
}
