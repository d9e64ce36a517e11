import type { TPageData } from "@app/core";
import { describe, expect, it } from "vitest";
import { afterIntroPath, introQuestion } from "./intro";
import { createOnboardingStore } from "./store";

type Onboarding = NonNullable<TPageData["onboarding"]>;
const fresh = (patch: Partial<Onboarding> = {}): Onboarding => ({
  flow: "dashboard",
  step: 0,
  source: null,
  forcedFlow: null,
  ...patch,
});

describe("the intro's question", () => {
  it.each([
    ["registered for dashboards", fresh(), true, { offered: true, initial: "dashboard" }],
    ["registered with ?source=mc", fresh({ flow: "mc" }), true, { offered: true, initial: "mc" }],
    ["answered before (a failed request)", fresh({ source: "mc" }), true, { offered: true, initial: "mc" }],
    ["lifetime deal: no choice", fresh({ forcedFlow: "dashboard" }), true, { offered: false, initial: "dashboard" }],
    [
      "lifetime deal registered from ?source=mc",
      fresh({ flow: "mc", forcedFlow: "dashboard" }),
      true,
      { offered: false, initial: "dashboard" },
    ],
    ["a member who is not an admin", fresh(), false, { offered: false, initial: "dashboard" }],
    ["no onboarding data", null, true, { offered: false, initial: "dashboard" }],
  ] as const)("%s", (_label, onboarding, isAdmin, expected) => {
    expect(introQuestion(onboarding, isAdmin)).toEqual(expected);
  });

  it.each([
    ["dashboard", "/company/sources"],
    ["mc", "/groups/create"],
  ] as const)("after the intro the %s flow goes to %s", (flow, path) => {
    expect(afterIntroPath(flow)).toBe(path);
  });
});

describe("the store follows the intro's answer", () => {
  function store() {
    const pushes: Array<{ onboarding_flow: string; onboarding_step: number }> = [];
    const created = createOnboardingStore({ push: (payload) => pushes.push(payload), save: async () => {} });
    return { store: created, pushes };
  }

  it("an mc answer on a dashboard registration starts the mc flow at step 1", () => {
    const { store: onboarding, pushes } = store();
    onboarding.seed("user-1", fresh());
    expect(onboarding.getSnapshot().state).toEqual({ flow: "dashboard", step: 0, questionnaire: null });
    onboarding.seed("user-1", fresh({ source: "mc" }));
    expect(onboarding.passIntro()).toBe(1);
    expect(onboarding.getSnapshot().state).toEqual({ flow: "mc", step: 1, questionnaire: { source: "mc" } });
    expect(pushes).toMatchObject([{ onboarding_flow: "mc", onboarding_step: 1 }]);
  });

  it("the page data after the intro (registration flow + saved answer) keeps the answered flow and step", () => {
    const { store: onboarding, pushes } = store();
    onboarding.seed("user-1", fresh({ step: 3, source: "mc" }));
    expect(onboarding.getSnapshot().state).toMatchObject({ flow: "mc", step: 3 });
    // The same data again (a re-render) changes nothing and pushes nothing.
    onboarding.seed("user-1", fresh({ step: 3, source: "mc" }));
    expect(onboarding.getSnapshot().state).toMatchObject({ flow: "mc", step: 3 });
    expect(pushes).toEqual([]);
  });

  it("a lifetime deal stays in the dashboard flow whatever the data says", () => {
    const { store: onboarding } = store();
    onboarding.seed("user-1", fresh({ flow: "mc", source: "mc", forcedFlow: "dashboard", step: 2 }));
    expect(onboarding.getSnapshot().state).toMatchObject({ flow: "dashboard", step: 2 });
  });
});
