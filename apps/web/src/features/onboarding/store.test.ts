import { ONBOARDING_BLOCK_MESSAGE, type OnboardingAnalyticsEvent, onboardingGuardBlock, routeByName } from "@app/core";
import { describe, expect, it } from "vitest";
import { activeHint, createOnboardingStore, type OnboardingPage } from "./store";

const DASHBOARD_DONE =
  "Your first professional reporting dashboard has been successfully created and it's all smooth sailing from here on out!";

/** A store over recording effects, seeded for one user and standing on `page`. */
function harness(onboarding: { flow: "dashboard" | "mc"; step: number } | null, page: Partial<OnboardingPage> = {}) {
  const pushes: OnboardingAnalyticsEvent[] = [];
  const saves: number[] = [];
  const store = createOnboardingStore({
    push: (payload) => pushes.push(payload),
    save: async (step) => saves.push(step),
  });
  store.seed("user-1", onboarding);
  store.setPage({ routeName: "dashboards.index", ...page });
  return { store, pushes, saves, step: () => store.getSnapshot().state?.step };
}

describe("onboarding store", () => {
  it("starts from the server's flow and step and runs on an app page", () => {
    const { store } = harness({ flow: "mc", step: 2 }, { routeName: "campaign.show" });
    const snapshot = store.getSnapshot();
    expect(snapshot.state).toEqual({ flow: "mc", step: 2, questionnaire: null });
    expect(snapshot.running).toBe(true);
  });

  it("moves one step on the current step's event, pushes it to the data layer and saves it", () => {
    const { store, pushes, saves, step } = harness({ flow: "dashboard", step: 1 });
    store.event("dashboard_created");
    expect(step()).toBe(2);
    expect(saves).toEqual([2]);
    expect(pushes).toEqual([
      {
        event: "onboarding_step",
        onboarding_flow: "dashboard",
        onboarding_step: 2,
        onboarding_step_name: "set_source",
        onboarding_previous_step: 1,
        onboarding_trigger: "dashboard_created",
        onboarding_finished: false,
      },
    ]);
  });

  it("ignores an event another step waits for: nothing pushed, nothing saved", () => {
    const { store, pushes, saves, step } = harness({ flow: "dashboard", step: 2 });
    store.event("date_range_changed");
    store.event("url_copied");
    expect(step()).toBe(2);
    expect(pushes).toEqual([]);
    expect(saves).toEqual([]);
  });

  it("does the whole dashboard flow and opens the congratulations with its text, then stops", () => {
    const { store, saves } = harness({ flow: "dashboard", step: 1 }, { routeName: "dashboard.show" });
    for (const event of [
      "dashboard_created",
      "source_connected",
      "edit_mode_off",
      "date_range_changed",
      "pdf_downloaded",
    ] as const)
      store.event(event);
    expect(saves).toEqual([2, 3, 4, 5, 6]);
    expect(store.getSnapshot().congratulations).toBe(DASHBOARD_DONE);
    expect(store.getSnapshot().running).toBe(false);
    store.closeCongratulations();
    store.event("url_copied");
    expect(saves).toEqual([2, 3, 4, 5, 6]);
    expect(store.getSnapshot().congratulations).toBeNull();
  });

  it("does the mc flow with Mission Control's events", () => {
    const { store, saves } = harness({ flow: "mc", step: 1 }, { routeName: "campaign.show" });
    for (const event of ["group_created", "domain_added", "window_switched", "domain_snoozed"] as const)
      store.event(event);
    expect(saves).toEqual([2, 3, 4, 5]);
    expect(store.getSnapshot().congratulations).toMatch(/^Your first domain has been added/);
  });

  it("leaves the intro without saving by itself: the intro's request carries the step", () => {
    const { store, pushes, saves } = harness({ flow: "dashboard", step: 0 }, { routeName: "intro" });
    expect(store.passIntro()).toBe(1);
    expect(saves).toEqual([]);
    expect(pushes.map((push) => [push.onboarding_step, push.onboarding_trigger])).toEqual([[1, "intro_passed"]]);
    // Clicked again after a failed request: nothing moves twice.
    expect(store.passIntro()).toBeNull();
    expect(pushes).toHaveLength(1);
  });

  it.each([
    ["the intro page", { routeName: "intro" }],
    ["a public viewer's dashboard", { routeName: "dashboard.show", isPublic: true }],
    ["the print view", { routeName: "dashboard.print" }],
    ["a dashboard drawn for print", { routeName: "dashboard.show", print: true }],
    ["the embedded dashboard", { routeName: "dashboard.embedded" }],
  ])("does nothing on %s", (_name, page) => {
    const { store, pushes, saves, step } = harness({ flow: "dashboard", step: 2 }, page);
    expect(store.getSnapshot().running).toBe(false);
    store.event("source_connected");
    expect(step()).toBe(2);
    expect(pushes).toEqual([]);
    expect(saves).toEqual([]);
  });

  it("runs again when the public dashboard is left for the member's own pages", () => {
    const { store, step } = harness({ flow: "dashboard", step: 2 }, { routeName: "dashboard.show", isPublic: true });
    store.setPage({ isPublic: false });
    store.event("source_connected");
    expect(step()).toBe(3);
  });

  it("does not guide a user still at step 0 after the intro (an account from before onboarding, the demo)", () => {
    const { store, saves } = harness({ flow: "dashboard", step: 0 });
    expect(store.getSnapshot().running).toBe(false);
    store.event("dashboard_created");
    expect(saves).toEqual([]);
  });

  it("nothing runs without a user or without onboarding data", () => {
    const { store, saves } = harness(null);
    store.event("dashboard_created");
    expect(store.getSnapshot()).toMatchObject({ state: null, running: false });
    expect(saves).toEqual([]);
  });

  it("follows a higher step from the server without saving it back, never a lower one", () => {
    const { store, pushes, saves, step } = harness({ flow: "dashboard", step: 2 });
    store.seed("user-1", { flow: "dashboard", step: 4 });
    expect(step()).toBe(4);
    expect(pushes.map((push) => push.onboarding_trigger)).toEqual(["set"]);
    store.seed("user-1", { flow: "dashboard", step: 1 });
    expect(step()).toBe(4);
    expect(saves).toEqual([]);
  });

  it("a finish the server reports opens the congratulations only where onboarding runs, never on the intro", () => {
    const onIntro = harness({ flow: "dashboard", step: 3 }, { routeName: "intro" });
    expect(onIntro.store.getSnapshot().running).toBe(false);
    onIntro.store.seed("user-1", { flow: "dashboard", step: 10 });
    expect(onIntro.store.getSnapshot()).toMatchObject({ state: { step: 6 }, congratulations: null });

    const onApp = harness({ flow: "dashboard", step: 3 }, { routeName: "dashboard.show" });
    onApp.store.seed("user-1", { flow: "dashboard", step: 10 });
    expect(onApp.store.getSnapshot().congratulations).toBe(DASHBOARD_DONE);
  });

  it("starts over for another user and forgets the closed hints", () => {
    const { store, step } = harness({ flow: "dashboard", step: 4 });
    store.dismissHint(4);
    store.seed("user-2", { flow: "mc", step: 1 });
    expect(step()).toBe(1);
    expect(store.getSnapshot()).toMatchObject({ state: { flow: "mc" }, dismissedHints: [] });
  });

  it("a failed save keeps the step in the tab; the next change saves the higher one", async () => {
    const attempts: number[] = [];
    const store = createOnboardingStore({
      push: () => {},
      save: async (step) => {
        attempts.push(step);
        if (step === 2) throw new Error("offline");
      },
    });
    store.seed("user-1", { flow: "dashboard", step: 1 });
    store.setPage({ routeName: "dashboard.show" });
    store.event("dashboard_created");
    await Promise.resolve();
    store.event("source_connected");
    expect(attempts).toEqual([2, 3]);
    expect(store.getSnapshot().state?.step).toBe(3);
  });

  it("notifies subscribers on each change and closes a step's hint once", () => {
    const { store } = harness({ flow: "dashboard", step: 3 });
    let calls = 0;
    const unsubscribe = store.subscribe(() => calls++);
    store.dismissHint(3);
    store.dismissHint(3);
    store.setPage({ routeName: "dashboards.index" });
    expect(calls).toBe(1);
    expect(store.getSnapshot().dismissedHints).toEqual([3]);
    unsubscribe();
    store.setPanelOpen(false);
    expect(calls).toBe(1);
  });

  it("guard 4 holds the user on the create page at step 1 with the message and the hint", () => {
    const { store } = harness({ flow: "dashboard", step: 1 }, { routeName: "dashboards.create" });
    const state = store.getSnapshot().state;
    if (!state) throw new Error("no state");
    const block = onboardingGuardBlock(state);
    expect(block(routeByName("dashboards.index"), "dashboards.create")).toBe("Create your first dashboard.");
    expect(ONBOARDING_BLOCK_MESSAGE).toBe("Please complete current step to continue.");
    store.event("dashboard_created");
    const next = store.getSnapshot().state;
    if (!next) throw new Error("no state");
    expect(onboardingGuardBlock(next)(routeByName("dashboard.show"), "dashboards.create")).toBeNull();
  });

  it("shows each dashboard hint at its anchor on the dashboard, the source one only in edit mode, until ok", () => {
    const { store } = harness({ flow: "dashboard", step: 2 }, { routeName: "dashboard.show" });
    const at = (anchor: string, editMode = false) => activeHint(store.getSnapshot(), anchor, editMode)?.text ?? null;
    expect(at("set-source")).toBeNull();
    expect(at("set-source", true)).toBe("Set a data source for your dashboard.");
    store.event("source_connected");
    expect(at("set-source", true)).toBeNull();
    expect(at("reporting-mode-toggle", true)).toBe("Switch off edit mode to see your dashboard in reporting mode.");
    store.dismissHint(3);
    expect(at("reporting-mode-toggle", true)).toBeNull();
    store.event("edit_mode_off");
    expect(at("date-range-picker")).toBe("Pick the date range your report shows.");
    store.setPage({ routeName: "dashboards.index" });
    expect(at("date-range-picker")).toBeNull();
    store.setPage({ routeName: "dashboard.show" });
    store.event("date_range_changed");
    expect(at("share-menu")).toBe("Copy the dashboard's URL or download it as a PDF to share it.");
    store.event("url_copied");
    expect(at("share-menu")).toBeNull();
  });

  it("shows the mc hints on the group page", () => {
    const { store } = harness({ flow: "mc", step: 2 }, { routeName: "campaign.show" });
    const at = (anchor: string) => activeHint(store.getSnapshot(), anchor, false)?.text ?? null;
    expect(at("add-domain")).toBe("Add the first domain to track in this group.");
    store.event("domain_added");
    expect(at("window-switch")).toBe("Switch between the last 7 and the last 30 days.");
    store.event("window_switched");
    expect(at("snooze-domain")).toBe("Snooze a domain's alerts for a week.");
  });
});
