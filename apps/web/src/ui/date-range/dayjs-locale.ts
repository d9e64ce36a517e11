import { useEffect, useState } from "react";

/**
 * dayjs's own locale of a dashboard's language, for Mantine's calendar (its weekday names and the
 * days' accessible names): each a chunk of its own, loaded only for the one language a page shows and
 * only with the picker, which is itself not in the public view's first download (bundle-budget.test.ts).
 * The tags are core's languages (i18n/languages.ts); English is dayjs's built-in.
 */
function loadDayjsLocale(language: string): Promise<unknown> | null {
  switch (language) {
    case "de":
      return import("dayjs/locale/de");
    case "fr":
      return import("dayjs/locale/fr");
    case "es":
      return import("dayjs/locale/es");
    case "it":
      return import("dayjs/locale/it");
    case "nl":
      return import("dayjs/locale/nl");
    case "pt":
      return import("dayjs/locale/pt");
    case "sl":
      return import("dayjs/locale/sl");
    default:
      return null;
  }
}

const loaded = new Set<string>(["en"]);

/** The dayjs locale to draw calendars in: `language`'s once its chunk is in, English until then. */
export function useDayjsLocale(language: string): string {
  const [ready, setReady] = useState(() => loaded.has(language));
  useEffect(() => {
    if (loaded.has(language)) {
      setReady(true);
      return;
    }
    let current = true;
    setReady(false);
    void loadDayjsLocale(language)
      ?.then(() => {
        loaded.add(language);
        if (current) setReady(true);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [language]);
  return ready && loaded.has(language) ? language : "en";
}
