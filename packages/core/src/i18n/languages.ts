/**
 * The languages a dashboard's client-facing pages can be read in (docs/product.md §9, "Report language").
 * A dashboard's `language` is one of these tags; English is the source catalogue and the default.
 */
export const LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "pt", "sl"] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = "en";

/**
 * The pseudo-locale: English accented and about 40 % longer, generated from the English catalogue
 * (i18n/pseudo.ts). For finding text that overflows or was left untranslated; never offered to users.
 */
export const PSEUDO_LANGUAGE = "en-XA";
export type CatalogueLanguage = Language | typeof PSEUDO_LANGUAGE;

/** Each language named in its own name, as the dashboard settings' select lists them. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  es: "Español",
  it: "Italiano",
  nl: "Nederlands",
  pt: "Português",
  sl: "Slovenščina",
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The first supported language of an Accept-Language header, by its q-values ("de-AT,de;q=0.9,en;q=0.8"
 * is German; a region reads as its language), or null when none is supported. For a client's page that
 * has no dashboard to take its language from: a link to a dashboard that does not exist.
 */
export function preferredLanguage(header: string | null | undefined): Language | null {
  if (!header) return null;
  const ranked = header
    .split(",")
    .map((part, position) => {
      const [range, ...params] = part.trim().split(";");
      const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return {
        tag: range.trim().toLowerCase().split("-")[0],
        quality: Number.isFinite(quality) ? quality : 0,
        position,
      };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.position - b.position);
  return ranked.map((entry) => entry.tag).find(isLanguage) ?? null;
}

/**
 * The locale numbers and dates are formatted in. English keeps the product's US formats ("1,234.5",
 * "Nov 28, 2026"); the pseudo-locale formats as English does.
 */
export function localeOf(language: CatalogueLanguage | null | undefined): string {
  if (!language || language === DEFAULT_LANGUAGE || language === PSEUDO_LANGUAGE) return "en-US";
  return language;
}
