import { describe, expect, it } from "vitest";
import { formatChange } from "../format/number";
import { translatorFor } from "../i18n/catalogues";
import { insightSentence, movementVerb, type SentenceInput } from "./sentence";

const base: SentenceInput = {
  metric: { label: "Sessions", format: "number", currency: null },
  aggregation: "sum",
  current: 56_310,
  previous: 50_100,
  delta: 6_210,
  // What the widget's change figure computes: 12.3952…, shown as 12.4%.
  percentChange: formatChange(56_310, 50_100),
  comparison: "vs Oct 1 – Oct 30",
  contribution: null,
  minAbsolute: 10,
};

describe("insightSentence", () => {
  it.each<[string, Partial<SentenceInput>, string]>([
    ["a sum going up", {}, "Sessions up 12.4% (+6,210) vs Oct 1 – Oct 30."],
    [
      "a sum with contributors and a tail",
      {
        contribution: {
          contributors: [
            { dimension: "Organic Search", delta: 5_100 },
            { dimension: "Paid Search", delta: -900 },
          ],
          other: 2_010,
          explainedShare: 0.68,
        },
      },
      "Sessions up 12.4% (+6,210) vs Oct 1 – Oct 30; Organic Search contributed +5,100, Paid Search −900, other +2,010.",
    ],
    [
      "a tail below the minimum is not mentioned",
      { contribution: { contributors: [{ dimension: "Organic Search", delta: 6_205 }], other: 5, explainedShare: 1 } },
      "Sessions up 12.4% (+6,210) vs Oct 1 – Oct 30; Organic Search contributed +6,205.",
    ],
    [
      "a sum going down",
      { current: 44_000, previous: 50_000, delta: -6_000, percentChange: -12 },
      "Sessions down 12% (−6,000) vs Oct 1 – Oct 30.",
    ],
    [
      "money in the widget's currency",
      {
        metric: { label: "Revenue", format: "money", currency: "eur" },
        current: 12_500,
        previous: 10_000,
        delta: 2_500,
        percentChange: 25,
      },
      "Revenue up 25% (+€2,500.00) vs Oct 1 – Oct 30.",
    ],
    [
      "money without a currency is USD",
      {
        metric: { label: "Cost", format: "money", currency: null },
        current: 900.5,
        previous: 1_000,
        delta: -99.5,
        percentChange: -9.95,
      },
      "Cost down 9.95% (−$99.50) vs Oct 1 – Oct 30.",
    ],
    [
      "yen has no cents",
      {
        metric: { label: "Revenue", format: "money", currency: "JPY" },
        current: 1_250_000,
        previous: 1_000_000,
        delta: 250_000,
        percentChange: 25,
      },
      "Revenue up 25% (+¥250,000) vs Oct 1 – Oct 30.",
    ],
    [
      "a lower-is-better sum that falls improved",
      {
        metric: { label: "Unsubscribes", format: "number", currency: null, lowerIsBetter: true },
        current: 120,
        previous: 200,
        delta: -80,
        percentChange: -40,
      },
      "Unsubscribes improved 40% (−80) vs Oct 1 – Oct 30.",
    ],
    [
      "a ratio says from and to, never an amount",
      {
        metric: { label: "Bounce Rate", format: "percent", currency: null, lowerIsBetter: true },
        aggregation: "average",
        current: 52,
        previous: 40,
        delta: 12,
        percentChange: 30,
      },
      "Bounce Rate worsened 30% (from 40% to 52%) vs Oct 1 – Oct 30.",
    ],
    [
      "an average never names contributors",
      {
        metric: { label: "Avg. Session Duration", format: "time", currency: null },
        aggregation: "average",
        current: 100,
        previous: 80,
        delta: 20,
        percentChange: 25,
        contribution: { contributors: [{ dimension: "Email", delta: 40 }], other: -20, explainedShare: 1 },
      },
      "Avg. Session Duration up 25% (from 1m 20s to 1m 40s) vs Oct 1 – Oct 30.",
    ],
    [
      "from zero there is no percent",
      { current: 40, previous: 0, delta: 40, percentChange: null, comparison: "vs Previous period" },
      "Sessions up from 0 to 40 vs Previous period.",
    ],
  ])("%s", (_name, overrides, expected) => {
    expect(insightSentence({ ...base, ...overrides })).toBe(expected);
  });
});

describe("movementVerb", () => {
  it.each([
    [5, false, "up"],
    [-5, false, "down"],
    [-5, true, "improved"],
    [5, true, "worsened"],
  ])("%s (lower is better: %s) → %s", (delta, lowerIsBetter, verb) => {
    expect(movementVerb(delta, lowerIsBetter)).toBe(verb);
  });
});

describe("insightSentence in the dashboard's language", () => {
  const contribution = {
    contributors: [
      { dimension: "Organic Search", delta: 5_100 },
      { dimension: "Paid Search", delta: -900.5 },
    ],
    other: 2_010.5,
    explainedShare: 0.68,
  };
  it.each<[string, string, Partial<SentenceInput>, string]>([
    [
      "de",
      "a sum with contributors: German words, order and numbers, dimension values as the data says them",
      {
        metric: { label: "Sitzungen", format: "number", currency: null },
        comparison: "ggü. 1. Okt. – 30. Okt.",
        contribution,
      },
      "Sitzungen um 12,4\u00a0% gestiegen (+6.210) ggü. 1. Okt. – 30. Okt.; Organic Search trug +5.100 bei, Paid Search −900,5, Sonstige +2.010,5.",
    ],
    [
      "de",
      "money in euros",
      {
        metric: { label: "Umsatz", format: "money", currency: "EUR" },
        current: 2_469,
        previous: 1_234.5,
        delta: 1_234.5,
        percentChange: 100,
        comparison: "ggü. Vorperiode",
      },
      "Umsatz um 100\u00a0% gestiegen (+1.234,50\u00a0€) ggü. Vorperiode.",
    ],
    [
      "de",
      "a ratio that worsened, from and to",
      {
        metric: { label: "Absprungrate", format: "percent", currency: null, lowerIsBetter: true },
        aggregation: "average",
        current: 52.5,
        previous: 40,
        delta: 12.5,
        percentChange: 31.25,
        comparison: "ggü. Vorperiode",
      },
      "Absprungrate um 31,25\u00a0% verschlechtert (von 40\u00a0% auf 52,5\u00a0%) ggü. Vorperiode.",
    ],
    [
      "de",
      "from zero",
      { current: 1_234.5, previous: 0, delta: 1_234.5, percentChange: null, comparison: "ggü. Vorperiode" },
      "Sessions von 0 auf 1.234,5 gestiegen ggü. Vorperiode.",
    ],
    [
      "fr",
      "French spacing before the semicolon",
      {
        metric: { label: "Sessions", format: "number", currency: null },
        comparison: "vs 1 oct. – 30 oct.",
        contribution,
      },
      // French groups digits with a narrow no-break space, and spaces its percent sign with a no-break space.
      "Sessions en hausse de 12,4\u00a0% (+6\u202f210) vs 1 oct. – 30 oct. ; Organic Search y a contribué pour +5\u202f100, Paid Search −900,5, autres +2\u202f010,5.",
    ],
    [
      "sl",
      "Slovenian (which groups digits from five on)",
      {
        metric: { label: "Seje", format: "number", currency: null },
        current: 120_000,
        previous: 136_000,
        delta: -16_000,
        percentChange: -11.76,
        comparison: "v primerjavi s 1. okt. – 30. okt.",
      },
      "Seje: padec za 11,76\u00a0% (−16.000) v primerjavi s 1. okt. – 30. okt.",
    ],
  ])("%s: %s", (language, _name, overrides, expected) => {
    expect(insightSentence({ ...base, ...overrides }, translatorFor(language))).toBe(expected);
  });

  it("the pseudo-locale marks every word we own and keeps the data's", () => {
    const sentence = insightSentence({ ...base, contribution }, translatorFor("en-XA"));
    // Each message is bracketed and accented (a nested one too); the label and the data are not ours to change.
    expect(sentence).toMatch(
      /^\[\[Sessions úþ 12\.4% \(\+6,210\) ~+\] vs Oct 1 – Oct 30; \[Organic Search çóñţŕíƀúţéð \+5,100 ~+\]/,
    );
    expect(sentence.endsWith("]")).toBe(true);
  });
});
