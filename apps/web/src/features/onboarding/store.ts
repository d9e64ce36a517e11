import {
  advance,
  completionMessage,
  hintFor,
  initialState,
  isFinished,
  ONBOARDING_INTRO_STEP,
  type OnboardingAnalyticsEvent,
  type OnboardingEvent,
  type OnboardingFlow,
  type OnboardingHint,
  type OnboardingState,
  type OnboardingTransition,
  runsOn,
  setStep,
} from "@app/core";

/**
 * The guided onboarding of docs/product.md §2, §4 in the browser: one store per tab, seeded from the page
 * data, moved by the user's actions through `onboardingEvent`. The rules are core's (machine.ts); this
 * holds the state, knows which page the user is on, and carries out what a transition asks for (an
 * analytics push, a save above step 0, the congratulations modal).
 */

export interface OnboardingPage {
  routeName: string | null;
  /** The page shows a dashboard to a public viewer (another company's member, a guest). */
  isPublic: boolean;
  /** The page renders for print (PDF, report preview). */
  print: boolean;
}

export interface OnboardingSnapshot {
  userId: string | null;
  state: OnboardingState | null;
  page: OnboardingPage;
  /** True when panel, hints, block and events apply on this page (see `isRunning`). */
  running: boolean;
  /** Steps whose hint the user closed with its ok button (this tab only: a reload shows it again). */
  dismissedHints: readonly number[];
  /** The "Getting started" panel is open; null until the user toggled it (then the screen size decides). */
  panelOpen: boolean | null;
  /** The completion text while the congratulations modal should show. */
  congratulations: string | null;
}

/** The page data's onboarding (docs/product.md §3), or the intro's answer not saved yet. */
export interface OnboardingSeed {
  /** The flow chosen at registration. */
  flow: OnboardingFlow;
  step: number;
  /** The intro questionnaire's answer, which picks the flow when it names one. */
  source?: string | null;
  /** The flow the company's plan imposes (a lifetime deal), whatever was answered. */
  forcedFlow?: OnboardingFlow | null;
}

export interface OnboardingEffects {
  /** `window.dataLayer.push` (docs/product.md §4: every change pushes an analytics event). */
  push: (payload: OnboardingAnalyticsEvent) => void;
  /** `POST /api/user/data {onboarding}`; only called above step 0. */
  save: (step: number) => Promise<unknown>;
}

export interface OnboardingStore {
  getSnapshot: () => OnboardingSnapshot;
  subscribe: (listener: () => void) => () => void;
  /**
   * From the page data: a new user, or another flow (the intro's answer changed it), starts over; the same
   * user's higher server step moves on (another tab).
   */
  seed: (userId: string | null, onboarding: OnboardingSeed | null) => void;
  setPage: (patch: Partial<OnboardingPage>) => void;
  /** A user action (docs/product.md §4); nothing happens when no onboarding runs on this page. */
  event: (event: OnboardingEvent) => void;
  /**
   * Leaving the intro (its Continue button), the one change made from the intro page itself: pushes the
   * analytics event and returns the step to save with the intro, or null when nothing moves.
   */
  passIntro: () => number | null;
  dismissHint: (step: number) => void;
  setPanelOpen: (open: boolean) => void;
  closeCongratulations: () => void;
}

const NO_PAGE: OnboardingPage = { routeName: null, isPublic: false, print: false };

/**
 * Onboarding runs between the intro and the end of the flow, on pages other than the intro, for members,
 * out of print (docs/product.md §2). A user whose step is still 0 after the intro (an account from before
 * onboarding, the demo) is not guided: only the intro's Continue starts a flow.
 */
export function isRunning(state: OnboardingState | null, page: OnboardingPage): boolean {
  if (state === null || state.step === ONBOARDING_INTRO_STEP || isFinished(state) || page.routeName === null)
    return false;
  return runsOn({ routeName: page.routeName, isPublic: page.isPublic, print: page.print });
}

export function createOnboardingStore(effects: OnboardingEffects): OnboardingStore {
  let snapshot: OnboardingSnapshot = {
    userId: null,
    state: null,
    page: NO_PAGE,
    running: false,
    dismissedHints: [],
    panelOpen: null,
    congratulations: null,
  };
  const listeners = new Set<() => void>();

  function set(patch: Partial<OnboardingSnapshot>) {
    const next = { ...snapshot, ...patch };
    next.running = isRunning(next.state, next.page);
    snapshot = next;
    for (const listener of listeners) listener();
  }

  /**
   * Carries out a transition: state, analytics push, save above 0, and the congratulations when it finished
   * the flow on a page where onboarding runs. Not elsewhere: the intro, for one, is not guided, and a
   * finish learnt there from the server (another tab, the page data fetched again) would otherwise open a
   * modal over the intro's own button.
   */
  function apply(transition: OnboardingTransition, saveIt: boolean) {
    if (!transition.changed) return;
    if (transition.analyticsEvent) effects.push(transition.analyticsEvent);
    // A lost save is taken up by the next one: the server keeps the highest step it was sent.
    if (saveIt && transition.save) void effects.save(transition.state.step).catch(() => {});
    const congratulate = transition.finishedNow && snapshot.running;
    set({
      state: transition.state,
      congratulations: congratulate ? completionMessage(transition.state) : snapshot.congratulations,
    });
  }

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    seed(userId, onboarding) {
      if (userId === null || onboarding === null) {
        if (snapshot.state !== null || snapshot.userId !== null) set({ userId: null, state: null, dismissedHints: [] });
        return;
      }
      const current = snapshot.state;
      const initial = initialState({
        serverStep: onboarding.step,
        flow: onboarding.flow,
        questionnaireSource: onboarding.source,
        forcedFlow: onboarding.forcedFlow,
      });
      if (snapshot.userId !== userId || current === null || current.flow !== initial.flow) {
        set({ userId, state: initial, dismissedHints: [], congratulations: null });
        return;
      }
      // The server already has this step: nothing to save, but the change is pushed like any other.
      apply(setStep(current, onboarding.step), false);
    },
    setPage(patch) {
      const page = { ...snapshot.page, ...patch };
      const same = (Object.keys(page) as Array<keyof OnboardingPage>).every((key) => page[key] === snapshot.page[key]);
      if (!same) set({ page });
    },
    event(event) {
      if (!snapshot.running || snapshot.state === null) return;
      apply(advance(snapshot.state, event), true);
    },
    passIntro() {
      const state = snapshot.state;
      if (state === null) return null;
      const transition = advance(state, "intro_passed");
      if (!transition.changed) return null;
      apply(transition, false);
      return transition.state.step;
    },
    dismissHint(step) {
      if (!snapshot.dismissedHints.includes(step)) set({ dismissedHints: [...snapshot.dismissedHints, step] });
    },
    setPanelOpen(open) {
      set({ panelOpen: open });
    },
    closeCongratulations() {
      set({ congratulations: null });
    },
  };
}

/** The tooltip hint hanging from `anchor` now: the step's, on its page, until its ok button closed it. */
export function activeHint(snapshot: OnboardingSnapshot, anchor: string, editMode: boolean): OnboardingHint | null {
  const { running, state, page, dismissedHints } = snapshot;
  if (!running || state === null || page.routeName === null) return null;
  const hint = hintFor(state, { routeName: page.routeName, editMode });
  if (hint === null || hint.anchor !== anchor || dismissedHints.includes(hint.step)) return null;
  return hint;
}
