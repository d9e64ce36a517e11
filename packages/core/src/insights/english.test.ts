import { describe, expect, it } from "vitest";
import en from "../i18n/messages/en.json";
import { INSIGHT_MESSAGES_EN } from "./english";

describe("the insight sentences' English", () => {
  it("is en.json's, message for message (the catalogue is the source translators work from)", () => {
    for (const [key, message] of Object.entries(INSIGHT_MESSAGES_EN))
      expect(message, key).toBe(en[key as keyof typeof en]);
  });

  it("covers every sentence message of en.json", () => {
    const sentenceKeys = Object.keys(en).filter(
      (key) => key.startsWith("insights.") && !["insights.title", "insights.reading"].includes(key),
    );
    expect(Object.keys(INSIGHT_MESSAGES_EN).sort()).toEqual(sentenceKeys.sort());
  });
});
