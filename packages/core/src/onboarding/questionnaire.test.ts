import { describe, expect, it } from "vitest";
import { QUESTIONNAIRE_AFTER_INTRO, QUESTIONNAIRE_FORCED_FLOW, questionnaireProblem } from "./questionnaire";

describe("questionnaireProblem (docs/product.md §3)", () => {
  it.each([
    ["mc before the intro", { source: "mc", forcedFlow: null, introPassed: false, savedSource: null }, null],
    [
      "dashboard before the intro",
      { source: "dashboard", forcedFlow: null, introPassed: false, savedSource: null },
      null,
    ],
    [
      "another answer before the intro replaces the saved one",
      { source: "dashboard", forcedFlow: null, introPassed: false, savedSource: "mc" },
      null,
    ],
    [
      "lifetime deal, dashboard answer",
      { source: "dashboard", forcedFlow: "dashboard", introPassed: false, savedSource: null },
      null,
    ],
    [
      "lifetime deal, mc answer",
      { source: "mc", forcedFlow: "dashboard", introPassed: false, savedSource: null },
      QUESTIONNAIRE_FORCED_FLOW,
    ],
    [
      "retried intro request: same answer after the intro",
      { source: "mc", forcedFlow: null, introPassed: true, savedSource: "mc" },
      null,
    ],
    [
      "switch after the intro",
      { source: "dashboard", forcedFlow: null, introPassed: true, savedSource: "mc" },
      QUESTIONNAIRE_AFTER_INTRO,
    ],
    [
      "first answer from a user already past the intro",
      { source: "mc", forcedFlow: null, introPassed: true, savedSource: null },
      QUESTIONNAIRE_AFTER_INTRO,
    ],
    [
      "lifetime deal wins over the after-intro rule's wording",
      { source: "mc", forcedFlow: "dashboard", introPassed: true, savedSource: null },
      QUESTIONNAIRE_FORCED_FLOW,
    ],
  ] as const)("%s", (_label, answer, expected) => {
    expect(questionnaireProblem(answer)).toBe(expected);
  });
});
