import type { GuardInput, OnboardingEvent, OnboardingHint } from "@app/core";
import { type ComponentType, type ReactNode, useEffect, useSyncExternalStore } from "react";

/**
 * What the pages see of onboarding, without loading it. The runtime (store, core's machine, the sync with
 * the page data) loads only for a signed-in user and plugs itself in here; until then, and for a guest on
 * a public dashboard, nothing runs and nothing more is downloaded (the public view's budget, apps/web/src/bundle-budget.test.ts).
 * Type imports only: this module stays a few hundred bytes.
 */
export interface OnboardingRuntimeView {
  /** A flow runs on this page (docs/product.md §2). */
  running: boolean;
  hintAt: (anchor: string, editMode: boolean) => OnboardingHint | null;
  /** Guard 4's check, read at the moment of the navigation. */
  block: NonNullable<GuardInput["onboardingBlock"]>;
  event: (event: OnboardingEvent) => void;
  /** The runtime's own drawing (the hint popover brings floating-ui): it comes with the runtime. */
  Hint: ComponentType<{ anchor: string; hint: OnboardingHint | null; children: ReactNode }>;
  Panel: ComponentType;
}

export interface OnboardingViewer {
  /** The page shows a dashboard to a public viewer (another company's member). */
  isPublic: boolean;
  /** The page renders a dashboard for print. */
  print: boolean;
}

interface BridgeState {
  runtime: OnboardingRuntimeView | null;
  viewer: OnboardingViewer;
}

let state: BridgeState = { runtime: null, viewer: { isPublic: false, print: false } };
const listeners = new Set<() => void>();

/**
 * Events a signed-in user's action raised before the runtime plugged in. The runtime is a lazy chunk
 * loaded after the page: a user who creates a dashboard (or copies a link) in the first few hundred
 * milliseconds of a page load would otherwise do the step without onboarding hearing of it, and the
 * next hint would never show. They are handed to the runtime when it plugs in, which applies them only
 * if a flow runs there (the store's own check), so a guest's held events are never used. Few and
 * distinct: no page raises more than a handful before the runtime loads.
 */
const MAX_HELD_EVENTS = 8;
let held: OnboardingEvent[] = [];

function publish(patch: Partial<BridgeState>) {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

export const onboardingBridge = {
  getState: (): BridgeState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /**
   * The runtime's current view (a new object on each change), or null when it unloads. The first view
   * after none receives the events held meanwhile; unloading (signing out) forgets them.
   */
  setRuntime(runtime: OnboardingRuntimeView | null): void {
    const plugsIn = state.runtime === null && runtime !== null;
    publish({ runtime });
    const pending = held;
    held = [];
    if (plugsIn) for (const event of pending) runtime.event(event);
  },
  setViewer(viewer: OnboardingViewer): void {
    if (viewer.isPublic !== state.viewer.isPublic || viewer.print !== state.viewer.print) publish({ viewer });
  },
};

export function useOnboardingBridge(): BridgeState {
  return useSyncExternalStore(onboardingBridge.subscribe, onboardingBridge.getState, onboardingBridge.getState);
}

/**
 * What a feature calls when the user did something an onboarding step waits for (docs/product.md §4).
 * Does nothing when no onboarding runs (finished, intro, public viewer, print) or the step waits for
 * something else; raised before the runtime loaded, it is held until it does (see `held`).
 */
export function onboardingEvent(event: OnboardingEvent): void {
  if (state.runtime !== null) {
    state.runtime.event(event);
    return;
  }
  // A public or print view never runs onboarding, whenever the runtime loads.
  if (state.viewer.isPublic || state.viewer.print) return;
  if (!held.includes(event) && held.length < MAX_HELD_EVENTS) held.push(event);
}

/**
 * A dashboard shown to a public viewer or for print: no onboarding while it is on screen
 * (docs/product.md §2). The route alone cannot tell: a member of another company sees dashboard.show.
 */
export function useOnboardingViewer({ isPublic, print }: OnboardingViewer): void {
  useEffect(() => {
    onboardingBridge.setViewer({ isPublic, print });
    return () => onboardingBridge.setViewer({ isPublic: false, print: false });
  }, [isPublic, print]);
}
