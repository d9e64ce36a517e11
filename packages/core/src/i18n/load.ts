import type { CatalogueLanguage } from "./languages";
import type { Messages } from "./translator";

/**
 * One language's catalogue, loaded on its own: the web app's bundler makes a chunk of each, so a public
 * view downloads only its dashboard's language. The pseudo-locale is generated from English on demand.
 */
export async function loadMessages(language: CatalogueLanguage): Promise<Messages> {
  switch (language) {
    case "de":
      return (await import("./messages/de.json")).default;
    case "fr":
      return (await import("./messages/fr.json")).default;
    case "es":
      return (await import("./messages/es.json")).default;
    case "it":
      return (await import("./messages/it.json")).default;
    case "nl":
      return (await import("./messages/nl.json")).default;
    case "pt":
      return (await import("./messages/pt.json")).default;
    case "sl":
      return (await import("./messages/sl.json")).default;
    case "en-XA": {
      const [{ pseudoMessages }, english] = await Promise.all([import("./pseudo"), import("./messages/en.json")]);
      return pseudoMessages(english.default);
    }
    default:
      return (await import("./messages/en.json")).default;
  }
}
