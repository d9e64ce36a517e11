import { describe, expect, it } from "vitest";
import { routeByName } from "../routing/routes";
import {
  finishedStep,
  ONBOARDING_COMPLETION_MESSAGES,
  ONBOARDING_EVENTS,
  ONBOARDING_FLOW_DEFINITIONS,
  type OnboardingEvent,
  type OnboardingFlow,
} from "./flows";
import {
  advance,
  blockedRoute,
  blockFor,
  completionMessage,
  hintFor,
  initialState,
  isCompleted,
  isFinished,
  type OnboardingState,
  onboardingGuardBlock,
  onboardingProgress,
  runsOn,
  setStep,
} from "./machine";

function at(flow: OnboardingFlow, step: number): OnboardingState {
  return { flow, step, questionnaire: null };
}

/** Written out from docs/product.md §4 (plus intro_passed leaving step 0): the only event(s) that move each step. */
const MOVES: Record<OnboardingFlow, Record<number, OnboardingEvent[]>> = {
  dashboard: {
    0: ["intro_passed"],
    1: ["dashboard_created"],
    2: ["source_connected"],
    3: ["edit_mode_off"],
    4: ["date_range_changed"],
    5: ["url_copied", "pdf_downloaded"],
    6: [],
  },
  mc: {
    0: ["intro_passed"],
    1: ["group_created"],
    2: ["domain_added"],
    3: ["window_switched"],
    4: ["domain_snoozed"],
    5: [],
  },
};

describe("flows (docs/product.md §4)", () => {
  it.each([
    ["dashboard", 5, 6, ["create_dashboard", "set_source", "reporting_mode", "date_range", "share_dashboard"]],
    ["mc", 4, 5, ["create_group", "add_domain", "switch_window", "snooze_alerts"]],
  ] as const)("%s has %i guided steps, finished at %i", (flow, count, finished, keys) => {
    expect(ONBOARDING_FLOW_DEFINITIONS[flow].steps.map((step) => step.key)).toEqual(keys);
    expect(ONBOARDING_FLOW_DEFINITIONS[flow].steps).toHaveLength(count);
    expect(finishedStep(flow)).toBe(finished);
  });

  it("every route a step names exists in the route table", () => {
    for (const definition of Object.values(ONBOARDING_FLOW_DEFINITIONS)) {
      for (const step of definition.steps) {
        if (step.blocksOn) expect(routeByName(step.blocksOn).name).toBe(step.blocksOn);
        if (step.tooltip) expect(routeByName(step.tooltip.routeName).name).toBe(step.tooltip.routeName);
      }
    }
  });

  it("has the completion messages", () => {
    expect(ONBOARDING_COMPLETION_MESSAGES).toEqual({
      dashboard:
        "Your first professional reporting dashboard has been successfully created and it's all smooth sailing from here on out!",
      mc: "Your first domain has been added to your group, and you can now track its weekly and monthly changes!",
    });
  });
});

describe("initialState (docs/product.md §3)", () => {
  it.each([
    ["new user, dashboard", { serverStep: 0, flow: "dashboard" }, { flow: "dashboard", step: 0, questionnaire: null }],
    ["server step kept", { serverStep: 3, flow: "mc" }, { flow: "mc", step: 3, questionnaire: null }],
    [
      "no server value → 0",
      { serverStep: null, flow: "dashboard" },
      { flow: "dashboard", step: 0, questionnaire: null },
    ],
    ["undefined → 0", { serverStep: undefined, flow: "mc" }, { flow: "mc", step: 0, questionnaire: null }],
    ["negative → 0", { serverStep: -2, flow: "dashboard" }, { flow: "dashboard", step: 0, questionnaire: null }],
    ["fraction → 0", { serverStep: 2.5, flow: "dashboard" }, { flow: "dashboard", step: 0, questionnaire: null }],
    ["NaN → 0", { serverStep: Number.NaN, flow: "dashboard" }, { flow: "dashboard", step: 0, questionnaire: null }],
    ["past the end → finished (mc)", { serverStep: 10, flow: "mc" }, { flow: "mc", step: 5, questionnaire: null }],
    [
      "past the end → finished (dashboard)",
      { serverStep: 7, flow: "dashboard" },
      { flow: "dashboard", step: 6, questionnaire: null },
    ],
    [
      "questionnaire mc wins over the initial flow",
      { serverStep: 0, flow: "dashboard", questionnaireSource: "mc" },
      { flow: "mc", step: 0, questionnaire: { source: "mc" } },
    ],
    [
      "questionnaire dashboard wins",
      { serverStep: 1, flow: "mc", questionnaireSource: "dashboard" },
      { flow: "dashboard", step: 1, questionnaire: { source: "dashboard" } },
    ],
    [
      "unknown source keeps the initial flow but is remembered",
      { serverStep: 0, flow: "mc", questionnaireSource: "friend" },
      { flow: "mc", step: 0, questionnaire: { source: "friend" } },
    ],
    [
      "blank source is no answer",
      { serverStep: 0, flow: "mc", questionnaireSource: "  " },
      { flow: "mc", step: 0, questionnaire: null },
    ],
    [
      "inherited object keys are not sources",
      { serverStep: 0, flow: "mc", questionnaireSource: "toString" },
      { flow: "mc", step: 0, questionnaire: { source: "toString" } },
    ],
    [
      "server step is capped by the questionnaire's flow",
      { serverStep: 6, flow: "dashboard", questionnaireSource: "mc" },
      { flow: "mc", step: 5, questionnaire: { source: "mc" } },
    ],
    [
      "configured source map",
      { serverStep: 0, flow: "dashboard", questionnaireSource: "seo", sourceFlows: { seo: "mc" } },
      { flow: "mc", step: 0, questionnaire: { source: "seo" } },
    ],
    [
      "a forced flow wins over the questionnaire (lifetime deal)",
      { serverStep: 1, flow: "dashboard", questionnaireSource: "mc", forcedFlow: "dashboard" },
      { flow: "dashboard", step: 1, questionnaire: { source: "mc" } },
    ],
    [
      "a forced flow wins over the initial flow",
      { serverStep: 0, flow: "mc", forcedFlow: "dashboard" },
      { flow: "dashboard", step: 0, questionnaire: null },
    ],
    [
      "no forced flow (null) leaves the answer deciding",
      { serverStep: 0, flow: "dashboard", questionnaireSource: "mc", forcedFlow: null },
      { flow: "mc", step: 0, questionnaire: { source: "mc" } },
    ],
    [
      "configured map replaces the default",
      { serverStep: 0, flow: "dashboard", questionnaireSource: "mc", sourceFlows: { seo: "mc" } },
      { flow: "dashboard", step: 0, questionnaire: { source: "mc" } },
    ],
  ] as const)("%s", (_label, input, expected) => {
    expect(initialState(input)).toEqual(expected);
  });
});

describe("advance: every event at every step (docs/product.md §4)", () => {
  const rows: Array<[OnboardingFlow, number, OnboardingEvent, number]> = [];
  for (const flow of ["dashboard", "mc"] as const) {
    for (let step = 0; step <= finishedStep(flow); step += 1) {
      for (const event of ONBOARDING_EVENTS) {
        rows.push([flow, step, event, MOVES[flow][step]?.includes(event) ? step + 1 : step]);
      }
    }
  }
  // 7 dashboard steps and 6 mc steps, each with every event.
  it("covers both flows", () => expect(rows).toHaveLength((7 + 6) * ONBOARDING_EVENTS.length));

  it.each(rows)("%s step %i + %s → step %i", (flow, step, event, expected) => {
    const result = advance(at(flow, step), event);
    expect(result.state.step).toBe(expected);
    expect(result.changed).toBe(expected !== step);
    expect(result.save).toBe(expected !== step);
    expect(result.finishedNow).toBe(expected !== step && expected === finishedStep(flow));
    if (expected === step) {
      expect(result.analyticsEvent).toBeNull();
      expect(result.state).toEqual(at(flow, step));
    } else {
      expect(result.analyticsEvent).toMatchObject({
        event: "onboarding_step",
        onboarding_flow: flow,
        onboarding_step: expected,
        onboarding_previous_step: step,
        onboarding_trigger: event,
        onboarding_finished: expected === finishedStep(flow),
      });
    }
  });

  it("does not mutate the state it is given", () => {
    const state = at("dashboard", 2);
    advance(state, "source_connected");
    expect(state).toEqual(at("dashboard", 2));
  });

  it.each([
    [
      "intro left (step 1 saved: above 0)",
      at("dashboard", 0),
      "intro_passed",
      {
        state: at("dashboard", 1),
        changed: true,
        finishedNow: false,
        save: true,
        analyticsEvent: {
          event: "onboarding_step",
          onboarding_flow: "dashboard",
          onboarding_step: 1,
          onboarding_step_name: "create_dashboard",
          onboarding_previous_step: 0,
          onboarding_trigger: "intro_passed",
          onboarding_finished: false,
        },
      },
    ],
    [
      "dashboard shared by PDF finishes",
      at("dashboard", 5),
      "pdf_downloaded",
      {
        state: at("dashboard", 6),
        changed: true,
        finishedNow: true,
        save: true,
        analyticsEvent: {
          event: "onboarding_step",
          onboarding_flow: "dashboard",
          onboarding_step: 6,
          onboarding_step_name: "finished",
          onboarding_previous_step: 5,
          onboarding_trigger: "pdf_downloaded",
          onboarding_finished: true,
        },
      },
    ],
    [
      "mc domain added",
      at("mc", 2),
      "domain_added",
      {
        state: at("mc", 3),
        changed: true,
        finishedNow: false,
        save: true,
        analyticsEvent: {
          event: "onboarding_step",
          onboarding_flow: "mc",
          onboarding_step: 3,
          onboarding_step_name: "switch_window",
          onboarding_previous_step: 2,
          onboarding_trigger: "domain_added",
          onboarding_finished: false,
        },
      },
    ],
  ] as const)("%s: full result", (_label, state, event, expected) => {
    expect(advance(state, event)).toEqual(expected);
  });

  it.each([
    [
      "dashboard flow in order, with stray events in between",
      "dashboard",
      [
        ["date_range_changed", 0],
        ["intro_passed", 1],
        ["source_connected", 1],
        ["dashboard_created", 2],
        ["edit_mode_off", 2],
        ["url_copied", 2],
        ["source_connected", 3],
        ["source_connected", 3],
        ["date_range_changed", 3],
        ["edit_mode_off", 4],
        ["domain_added", 4],
        ["date_range_changed", 5],
        ["url_copied", 6],
        ["pdf_downloaded", 6],
      ],
    ],
    [
      "mc flow, with dashboard events ignored",
      "mc",
      [
        ["intro_passed", 1],
        ["dashboard_created", 1],
        ["domain_added", 1],
        ["group_created", 2],
        ["window_switched", 2],
        ["domain_added", 3],
        ["domain_snoozed", 3],
        ["window_switched", 4],
        ["domain_snoozed", 5],
        ["domain_snoozed", 5],
      ],
    ],
  ] as const)("walkthrough: %s", (_label, flow, script) => {
    let state = at(flow, 0);
    const finishes: number[] = [];
    for (const [event, expected] of script) {
      const result = advance(state, event);
      if (result.finishedNow) finishes.push(result.state.step);
      state = result.state;
      expect([event, state.step]).toEqual([event, expected]);
    }
    expect(finishes).toEqual([finishedStep(flow)]);
    expect(isFinished(state)).toBe(true);
  });
});

describe("setStep (docs/product.md §4: never backwards after the intro, nothing once finished)", () => {
  it.each([
    ["dashboard", 0, 0, 0],
    ["dashboard", 0, 1, 1],
    ["dashboard", 0, 3, 3],
    ["dashboard", 1, 2, 2],
    ["dashboard", 2, 5, 5],
    ["dashboard", 3, 3, 3],
    ["dashboard", 3, 2, 3],
    ["dashboard", 3, 0, 3],
    ["dashboard", 1, 0, 1],
    ["dashboard", 5, 6, 6],
    ["dashboard", 5, 9, 6],
    ["dashboard", 6, 1, 6],
    ["dashboard", 6, 7, 6],
    ["dashboard", 2, -1, 2],
    ["dashboard", 2, 3.5, 2],
    ["dashboard", 2, Number.NaN, 2],
    ["mc", 0, 4, 4],
    ["mc", 4, 5, 5],
    ["mc", 4, 6, 5],
    ["mc", 4, 3, 4],
    ["mc", 5, 2, 5],
    ["mc", 5, 6, 5],
  ] as const)("%s step %i, set %d → %i", (flow, from, to, expected) => {
    const result = setStep(at(flow, from), to);
    expect(result.state.step).toBe(expected);
    expect(result.changed).toBe(expected !== from);
    expect(result.save).toBe(expected !== from && expected > 0);
    expect(result.finishedNow).toBe(expected !== from && expected === finishedStep(flow));
    expect(result.analyticsEvent?.onboarding_trigger ?? null).toBe(expected !== from ? "set" : null);
  });
});

describe("isCompleted / isFinished (docs/product.md §4, §9)", () => {
  it.each([
    [0, false],
    [1, false],
    [2, false],
    [3, true],
    [5, true],
    [6, true],
  ])("step %i completed: %s", (step, expected) => {
    expect(isCompleted(step)).toBe(expected);
  });

  it.each([
    ["dashboard", 5, false],
    ["dashboard", 6, true],
    ["mc", 4, false],
    ["mc", 5, true],
    ["mc", 0, false],
  ] as const)("%s step %i finished: %s", (flow, step, expected) => {
    expect(isFinished(at(flow, step))).toBe(expected);
    expect(completionMessage(at(flow, step))).toBe(expected ? ONBOARDING_COMPLETION_MESSAGES[flow] : null);
  });
});

describe("blocked pages (docs/product.md §4)", () => {
  const createDashboard = "Please complete current step to continue. Create your first dashboard.";
  const setSource = "Please complete current step to continue. Set a data source for your dashboard.";
  const createGroup = "Please complete current step to continue. Create your first group.";
  const addDomain = "Please complete current step to continue. Add the first domain to track in this group.";
  it.each([
    ["dashboard", 0, null],
    ["dashboard", 1, { routeName: "dashboards.create", message: createDashboard }],
    ["dashboard", 2, { routeName: "dashboard.show", message: setSource }],
    ["dashboard", 3, null],
    ["dashboard", 4, null],
    ["dashboard", 5, null],
    ["dashboard", 6, null],
    ["mc", 0, null],
    ["mc", 1, { routeName: "campaigns.create", message: createGroup }],
    ["mc", 2, { routeName: "campaign.show", message: addDomain }],
    ["mc", 3, null],
    ["mc", 4, null],
    ["mc", 5, null],
  ] as const)("%s step %i holds on %o", (flow, step, expected) => {
    const block = blockedRoute(at(flow, step));
    expect(block === null ? null : { routeName: block.routeName, message: block.message }).toEqual(expected);
  });

  it.each([
    ["dashboard", 1, "dashboards.create", "Create your first dashboard."],
    ["dashboard", 1, "company.sources", null],
    ["dashboard", 1, null, null],
    ["dashboard", 2, "dashboard.show", "Set a data source for your dashboard."],
    ["dashboard", 2, "dashboards.create", null],
    ["dashboard", 3, "dashboard.show", null],
    ["mc", 1, "campaigns.create", "Create your first group."],
    ["mc", 1, "dashboards.create", null],
    ["mc", 2, "campaign.show", "Add the first domain to track in this group."],
    ["mc", 2, "dashboard.show", null],
    ["mc", 5, "campaign.show", null],
  ] as const)("blockFor %s step %i on %s → hint %s", (flow, step, current, hint) => {
    expect(blockFor(at(flow, step), current)?.hint ?? null).toBe(hint);
  });

  it.each([
    ["dashboard", 1, "dashboards.create", "dashboards.index", "Create your first dashboard."],
    ["dashboard", 1, "dashboards.create", "dashboards.create", null],
    ["dashboard", 1, "company.sources", "dashboards.index", null],
    ["dashboard", 2, "dashboard.show", "dashboard.show", null],
    ["dashboard", 2, "dashboard.show", "dashboard.print", "Set a data source for your dashboard."],
    // Sources are connected on the company's sources page: the step lets the user go there (no trap).
    ["dashboard", 2, "dashboard.show", "company.sources", null],
    ["dashboard", 2, "dashboard.show", "dashboards.index", "Set a data source for your dashboard."],
    ["mc", 2, "campaign.show", "company.sources", "Add the first domain to track in this group."],
    ["dashboard", 3, "dashboard.show", "dashboards.index", null],
    ["mc", 2, "campaign.show", "campaigns.index", "Add the first domain to track in this group."],
    ["mc", 1, null, "campaigns.index", null],
  ] as const)("guard callback %s step %i: %s → %s gives %s", (flow, step, from, to, expected) => {
    expect(onboardingGuardBlock(at(flow, step))(routeByName(to), from)).toBe(expected);
  });
});

describe("hintFor (docs/product.md §2, §4)", () => {
  it.each([
    ["dashboard", 0, "dashboard.show", true, null],
    ["dashboard", 1, "dashboards.create", true, null],
    ["dashboard", 2, "dashboard.show", true, "set-source"],
    ["dashboard", 2, "dashboard.show", false, null],
    ["dashboard", 2, "dashboards.index", true, null],
    ["dashboard", 3, "dashboard.show", true, "reporting-mode-toggle"],
    ["dashboard", 3, "dashboard.show", false, "reporting-mode-toggle"],
    ["dashboard", 4, "dashboard.show", false, "date-range-picker"],
    ["dashboard", 5, "dashboard.show", false, "share-menu"],
    ["dashboard", 6, "dashboard.show", false, null],
    ["dashboard", 7, "dashboard.show", false, null],
    ["mc", 1, "campaigns.create", false, null],
    ["mc", 2, "campaign.show", false, "add-domain"],
    ["mc", 3, "campaign.show", false, "window-switch"],
    ["mc", 4, "campaign.show", false, "snooze-domain"],
    ["mc", 4, "dashboard.show", false, null],
    ["mc", 5, "campaign.show", false, null],
  ] as const)("%s step %i on %s (edit mode %s) → %s", (flow, step, routeName, editMode, anchor) => {
    expect(hintFor(at(flow, step), { routeName, editMode })?.anchor ?? null).toBe(anchor);
  });

  it("gives the step number and text", () => {
    expect(hintFor(at("mc", 3), { routeName: "campaign.show", editMode: false })).toEqual({
      step: 3,
      anchor: "window-switch",
      text: "Switch between the last 7 and the last 30 days.",
    });
  });
});

describe("runsOn (docs/product.md §2)", () => {
  it.each([
    ["dashboard.show", false, false, true],
    ["dashboards.create", false, false, true],
    ["campaign.show", false, false, true],
    ["company.sources", false, false, true],
    ["intro", false, false, false],
    ["dashboard.show", true, false, false],
    ["dashboard.show", false, true, false],
    ["dashboard.print", false, false, false],
    ["dashboard.embedded", false, false, false],
    ["intro", true, true, false],
  ] as const)("%s public=%s print=%s → %s", (routeName, isPublic, print, expected) => {
    expect(runsOn({ routeName, isPublic, print })).toBe(expected);
  });

  it("takes a configured route list", () => {
    expect(runsOn({ routeName: "dashboard.embedded", isPublic: false, print: false, excludedRoutes: ["intro"] })).toBe(
      true,
    );
    expect(
      runsOn({ routeName: "company.users", isPublic: false, print: false, excludedRoutes: ["company.users"] }),
    ).toBe(false);
  });
});

describe("onboardingProgress (docs/product.md §2 panel)", () => {
  it.each([
    ["dashboard", 0, 0, 5, 0, null],
    ["dashboard", 1, 0, 5, 0, 1],
    ["dashboard", 3, 2, 5, 40, 3],
    ["dashboard", 6, 5, 5, 100, null],
    ["mc", 2, 1, 4, 25, 2],
    ["mc", 5, 4, 4, 100, null],
  ] as const)("%s step %i: %i of %i, %i %%, current %s", (flow, step, done, total, percent, current) => {
    const progress = onboardingProgress(at(flow, step));
    expect([progress.done, progress.total, progress.percent]).toEqual([done, total, percent]);
    expect(progress.checklist.filter((item) => item.done)).toHaveLength(done);
    expect(progress.checklist.find((item) => item.current)?.step ?? null).toBe(current);
  });

  it("lists the checklist labels", () => {
    expect(onboardingProgress(at("mc", 3)).checklist).toEqual([
      { step: 1, key: "create_group", label: "Create a group", done: true, current: false },
      { step: 2, key: "add_domain", label: "Add a domain", done: true, current: false },
      { step: 3, key: "switch_window", label: "Switch between 7 and 30 days", done: false, current: true },
      { step: 4, key: "snooze_alerts", label: "Snooze alerts", done: false, current: false },
    ]);
  });
});
