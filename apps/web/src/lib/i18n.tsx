import { type CatalogueLanguage, DEFAULT_LANGUAGE, isLanguage, localeOf, PSEUDO_LANGUAGE } from "@app/core";
import { ENGLISH } from "@app/core/i18n/english";
import { loadMessages } from "@app/core/i18n/load";
import type { Messages, MessageValues, Translator } from "@app/core/i18n/translator";
import { type QueryClient, queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useRef } from "react";

/**
 * A dashboard's client-facing pages in its language (docs/decisions.md, "Report languages"). The ICU
 * library (FormatJS's intl-messageformat, in core's i18n/translator.ts) and the language's catalogue load
 * together, lazily, beside the dashboard's own answer: neither is in the public view's first download.
 * The catalogue travels as a React Query answer, so a server-rendered page carries it to the browser.
 */
type Runtime = typeof import("@app/core/i18n/translator");
let runtime: Runtime | null = null;

export function loadI18nRuntime(): Promise<Runtime> {
  return import("@app/core/i18n/translator").then((module) => {
    runtime = module;
    return module;
  });
}

/** A tag a page may name (its `<html lang>`, a dashboard's answer) as a catalogue, English otherwise. */
export function catalogueLanguage(value: string | null | undefined): CatalogueLanguage {
  return value === PSEUDO_LANGUAGE || isLanguage(value) ? value : DEFAULT_LANGUAGE;
}

export function messagesQuery(language: CatalogueLanguage) {
  return queryOptions({
    queryKey: ["messages", language] as const,
    queryFn: async (): Promise<Messages> => (await Promise.all([loadMessages(language), loadI18nRuntime()]))[0],
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}

/** Starts loading a catalogue before anything asks for it (the page's `<html lang>` names it). */
export function prefetchMessages(queryClient: QueryClient, language: string | null | undefined): void {
  void queryClient.prefetchQuery(messagesQuery(catalogueLanguage(language)));
}

/**
 * English without the ICU library, for what renders outside a dashboard's language (the agency's own
 * screens, a widget's preview in the editor): arguments are put in by name. English messages a client
 * page shows through the real library; here a plural or select reads its source text.
 */
const plainEnglish: Translator = {
  language: DEFAULT_LANGUAGE,
  locale: localeOf(DEFAULT_LANGUAGE),
  t: (key, values?: MessageValues) =>
    ENGLISH[key].replace(/\{(\w+)\}/g, (whole, name: string) =>
      values && name in values ? String(values[name]) : whole,
    ),
};

const translators = new Map<string, Translator>();
function translatorOf(runtimeModule: Runtime, language: CatalogueLanguage, messages: Messages): Translator {
  let translator = translators.get(language);
  if (!translator) {
    translator = runtimeModule.createTranslator(language, messages);
    translators.set(language, translator);
  }
  return translator;
}

const I18nContext = createContext<Translator>(plainEnglish);

/** The translator of the nearest language (a dashboard's), or plain English. */
export function useI18n(): Translator {
  return useContext(I18nContext);
}

/**
 * Its children in `language`, once its catalogue and the library are in; `fallback` until then (the
 * dashboard's loader). A server-rendered page arrives with both (ssr/hydrate.tsx loads the library
 * before it hydrates).
 */
export function I18nProvider({
  language,
  fallback,
  children,
}: {
  language: string | null | undefined;
  fallback: ReactNode;
  children: ReactNode;
}) {
  const wanted = catalogueLanguage(language);
  const { data: messages } = useQuery(messagesQuery(wanted));
  // Cached by language (translatorOf): a re-render finds the same translator.
  const translator = messages && runtime ? translatorOf(runtime, wanted, messages) : null;
  // Another language chosen on a page already shown keeps the words it has until the new ones are in,
  // rather than the fallback (which would unmount the page and its unsaved state).
  const shown = useRef<Translator | null>(null);
  if (translator) shown.current = translator;
  if (!shown.current) return fallback;
  return <I18nContext.Provider value={translator ?? shown.current}>{children}</I18nContext.Provider>;
}

/**
 * A language's words outside its provider (the dashboard's loader, which shows before and while the
 * provider waits): its catalogue if already in (the page's `<html lang>` starts loading it at once),
 * plain English otherwise. Only read, never asked for: the server's render must not carry a second
 * catalogue to the browser for a loader nobody sees.
 */
export function useTranslatorFor(language: string | null | undefined): Translator {
  const wanted = catalogueLanguage(language);
  const messages = useQueryClient().getQueryData(messagesQuery(wanted).queryKey);
  return messages && runtime ? translatorOf(runtime, wanted, messages) : plainEnglish;
}
