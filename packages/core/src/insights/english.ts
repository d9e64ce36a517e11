import { createTranslator, type Messages, type Translator } from "../i18n/translator";

/**
 * The English messages of an insight sentence, as in i18n/messages/en.json (english.test.ts keeps them
 * equal): the sentence's default language without importing a catalogue's JSON, which core's index
 * must not do (plain Node, the browser tests' runner, does not import JSON without an attribute).
 */
export const INSIGHT_MESSAGES_EN = {
  "insights.byPercent":
    "{metric} {verb, select, up {up} down {down} improved {improved} other {worsened}} {percent} ({detail})",
  "insights.fromTo":
    "{metric} {verb, select, up {up} down {down} improved {improved} other {worsened}} from {from} to {to}",
  "insights.detailFromTo": "from {from} to {to}",
  "insights.sentence": "{movement} {comparison}.",
  "insights.sentenceWithContributors": "{movement} {comparison}; {contributors}.",
  "insights.firstContributor": "{name} contributed {amount}",
  "insights.contributor": "{name} {amount}",
  "insights.other": "other {amount}",
} as const;

/** English insight sentences, for callers that give no translator (core's own tests, English dashboards). */
export const ENGLISH_INSIGHTS: Translator = createTranslator("en", INSIGHT_MESSAGES_EN as unknown as Messages);
