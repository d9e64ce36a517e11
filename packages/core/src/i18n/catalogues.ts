import { type CatalogueLanguage, DEFAULT_LANGUAGE, isLanguage, type Language, PSEUDO_LANGUAGE } from "./languages";
import de from "./messages/de.json";
import en from "./messages/en.json";
import es from "./messages/es.json";
import fr from "./messages/fr.json";
import it from "./messages/it.json";
import nl from "./messages/nl.json";
import pt from "./messages/pt.json";
import sl from "./messages/sl.json";
import { pseudoMessages } from "./pseudo";
import { createTranslator, type Messages, type Translator } from "./translator";

/**
 * Every catalogue at once, for the server (its HTML, PDFs and e-mails): a few kilobytes each, and a
 * server render must not wait for an import. The web app loads one language at a time (i18n/load.ts).
 */
export const CATALOGUES: Record<Language, Messages> = { en, de, fr, es, it, nl, pt, sl };

const translators = new Map<CatalogueLanguage, Translator>();

/** The translator of `language` (kept: its messages are parsed once); anything unknown reads English. */
export function translatorFor(language: string | null | undefined): Translator {
  const key: CatalogueLanguage =
    language === PSEUDO_LANGUAGE ? PSEUDO_LANGUAGE : isLanguage(language) ? language : DEFAULT_LANGUAGE;
  let translator = translators.get(key);
  if (!translator) {
    translator = createTranslator(key, key === PSEUDO_LANGUAGE ? pseudoMessages(en) : CATALOGUES[key]);
    translators.set(key, translator);
  }
  return translator;
}
