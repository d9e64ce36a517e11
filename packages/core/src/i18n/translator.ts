import { IntlMessageFormat } from "intl-messageformat";
import { type CatalogueLanguage, localeOf } from "./languages";
import type en from "./messages/en.json";

/** Every message key; English (messages/en.json) is the source catalogue, every other has the same keys. */
export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
export type MessageValues = Record<string, string | number | Date>;

/** What client-facing code formats with: the language, its locale, and its messages. */
export interface Translator {
  language: CatalogueLanguage;
  /** The locale for Intl (numbers, dates): core's format functions take it. */
  locale: string;
  t: (key: MessageKey, values?: MessageValues) => string;
}

/**
 * A translator over one catalogue. ICU messages (plurals, selects, numbers, dates) through FormatJS's
 * intl-messageformat, each message parsed on first use and kept. A key missing from the catalogue reads
 * as the key itself, so a gap shows in the page rather than as an empty string (the catalogue test in
 * i18n/catalogues.test.ts keeps that from shipping).
 */
export function createTranslator(language: CatalogueLanguage, messages: Messages): Translator {
  const locale = localeOf(language);
  const compiled = new Map<MessageKey, IntlMessageFormat>();
  return {
    language,
    locale,
    t(key, values) {
      let format = compiled.get(key);
      if (!format) {
        const source = messages[key];
        if (source === undefined) return key;
        format = new IntlMessageFormat(source, locale);
        compiled.set(key, format);
      }
      return String(format.format(values));
    },
  };
}
