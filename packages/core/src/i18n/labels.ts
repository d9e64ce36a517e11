import type { LabelCatalogue } from "./label-text";
import de from "./labels/de.json";
import es from "./labels/es.json";
import fr from "./labels/fr.json";
import it from "./labels/it.json";
import nl from "./labels/nl.json";
import pt from "./labels/pt.json";
import sl from "./labels/sl.json";
import { type CatalogueLanguage, DEFAULT_LANGUAGE, PSEUDO_LANGUAGE } from "./languages";
import { pseudoMessage } from "./pseudo";

export * from "./label-text";

/**
 * Metric and dimension labels in the client's language (docs/decisions.md, "Metric and dimension labels
 * in the dashboard's language"). The catalogue is keyed by the English label itself, not by connector
 * and metric: "Sessions" or "Clicks" is declared by many connectors and translated once, a provider's
 * own label list (GA4's metadata) is translated wherever its words match, and the catalogue never names
 * a connector (scripts/check-connector-boundaries.mjs). English is the source, so it has no file; a label
 * with no entry reads as declared. The test in apps/server/src/connectors/labels.test.ts fails when a
 * label a connector declares lacks an entry in any language.
 */
/** Every language's labels, for the server (insights sentences, e-mails); the web loads one (loadLabels). */
export const LABEL_CATALOGUES: Readonly<Record<Exclude<CatalogueLanguage, "en" | "en-XA">, LabelCatalogue>> = {
  de,
  fr,
  es,
  it,
  nl,
  pt,
  sl,
};

/** The pseudo-locale's labels: each known English label accented and lengthened like its messages. */
function pseudoLabels(): LabelCatalogue {
  return Object.fromEntries(Object.keys(de).map((label) => [label, pseudoMessage(label.replaceAll("'", "''"))]));
}

let pseudo: LabelCatalogue | null = null;

/** The label catalogue of `language`, or null for English (and anything unknown): labels read as declared. */
export function labelCatalogue(language: string | null | undefined): LabelCatalogue | null {
  if (language === PSEUDO_LANGUAGE) {
    pseudo ??= pseudoLabels();
    return pseudo;
  }
  if (!language || language === DEFAULT_LANGUAGE) return null;
  return Object.hasOwn(LABEL_CATALOGUES, language) ? LABEL_CATALOGUES[language as keyof typeof LABEL_CATALOGUES] : null;
}

/**
 * One language's labels on their own, for the web app: its bundler makes a chunk of each, so a client's
 * view downloads only its dashboard's language (null: English, nothing to load).
 */
export async function loadLabels(language: string | null | undefined): Promise<LabelCatalogue | null> {
  switch (language) {
    case "de":
      return (await import("./labels/de.json")).default;
    case "fr":
      return (await import("./labels/fr.json")).default;
    case "es":
      return (await import("./labels/es.json")).default;
    case "it":
      return (await import("./labels/it.json")).default;
    case "nl":
      return (await import("./labels/nl.json")).default;
    case "pt":
      return (await import("./labels/pt.json")).default;
    case "sl":
      return (await import("./labels/sl.json")).default;
    case PSEUDO_LANGUAGE:
      return labelCatalogue(PSEUDO_LANGUAGE);
    default:
      return null;
  }
}
