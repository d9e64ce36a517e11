import type { MessageKey, MessageValues, Translator } from "../i18n/translator";

/**
 * The goal line's English messages (the `goals.*` keys of i18n/messages/en.json) said without the ICU
 * library: the default of goals/sentence.ts, so a view that shows a goal line outside a dashboard's
 * language (the owner's widget preview) does not pull FormatJS into the public view's first download,
 * and core's index imports no catalogue JSON (plain Node, the browser tests' runner, cannot without an
 * attribute). english.test.ts keeps every message equal to en.json's through the real library.
 */
const ENGLISH_GOAL_WORDS: Partial<Record<MessageKey, (values: MessageValues) => string>> = {
  "goals.progress": (v) => `${v.value} of ${v.threshold}`,
  "goals.progressPercent": (v) => `${v.value} of ${v.threshold} (${v.percent})`,
  "goals.noData": (v) => `No data yet of ${v.threshold}`,
  "goals.noBaseline": () => "no comparison value to measure the change against",
  "goals.daysLeft": (v) => (v.days === 1 ? "1 day left" : `${v.days} days left`),
  "goals.ended": () => "ended",
  "goals.met": () => "target met",
  "goals.noPace": () => "too little data for a pace",
  "goals.onPace": (v) => `on pace for ${v.projected}, ${v.gap} ${v.side}`,
  "goals.gap": (v) => `${v.gap} ${v.side}`,
  "goals.periodWeek": () => "This week",
  "goals.periodWeekOf": (v) => `Week of ${v.start}`,
  "goals.periodChange": () => "vs previous period",
  "goals.withPeriod": (v) => `${v.period}: ${v.line}`,
  "goals.summaryCount": (v) => `${v.onTrack} of ${v.total} ${v.total === 1 ? "goal" : "goals"} on track`,
  "goals.summaryWorst": (v) => `${v.label} ${v.gap} ${v.side === "short" ? "short" : "over"}`,
  "goals.summary": (v) => `${v.count}; ${v.worst}`,
};

/** The keys ENGLISH_GOALS says (english.test.ts: every `goals.*` key of en.json). */
export const ENGLISH_GOAL_KEYS = Object.keys(ENGLISH_GOAL_WORDS) as MessageKey[];

/** English goal lines for callers that give no translator (core's tests, English dashboards, the owner's screens). */
export const ENGLISH_GOALS: Translator = {
  language: "en",
  locale: "en-US",
  t: (key, values = {}) => ENGLISH_GOAL_WORDS[key]?.(values) ?? key,
};
