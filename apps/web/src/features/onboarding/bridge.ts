import type { GuardInput, OnboardingEvent, OnboardingHint } from "@app/core";
import { type ComponentType, type ReactNode, useEffect, useSyncExternalStore } from "react";

/**
 * What the pages see of onboarding, without loading it. The runtime (store, core's machine, the sync with
 * the page data) loads only for a signed-in user and plugs itself in here; until then, and for a guest on
 * a public dashboard, nothing runs and nothing more is downloaded (the public view's budget, issue 6 §5).
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
  /** The runtime's current view (a new object on each change), or null when it unloads. */
  setRuntime(runtime: OnboardingRuntimeView | null): void {
    publish({ runtime });
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
 * something else.
 */
export function onboardingEvent(event: OnboardingEvent): void {
  state.runtime?.event(event);
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
