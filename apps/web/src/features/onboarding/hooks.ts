import { type GuardInput, onboardingGuardBlock } from "@app/core";
import { useSyncExternalStore } from "react";
import type { OnboardingRuntimeView } from "./bridge";
import { HintPopover } from "./components/HintPopover";
import { OnboardingPanel } from "./components/OnboardingPanel";
import { onboardingStore } from "./instance";
import { activeHint, type OnboardingSnapshot } from "./store";

/** The store itself, for the runtime's own components (panel, hints, congratulations). */
export function useOnboarding(): OnboardingSnapshot {
  return useSyncExternalStore(onboardingStore.subscribe, onboardingStore.getSnapshot, onboardingStore.getSnapshot);
}

/**
 * Guard 4's check reads the step at the moment of the navigation, not at the last render: creating the
 * dashboard moves to step 2 and navigates to it in the same click, and step 1 must not hold that.
 */
const liveBlock: NonNullable<GuardInput["onboardingBlock"]> = (to, fromRouteName) => {
  const { running, state } = onboardingStore.getSnapshot();
  return running && state !== null ? onboardingGuardBlock(state)(to, fromRouteName) : null;
};

/** What the pages may know and do of a store snapshot (see bridge.ts). */
export function runtimeView(snapshot: OnboardingSnapshot): OnboardingRuntimeView {
  return {
    running: snapshot.running,
    hintAt: (anchor, editMode) => activeHint(snapshot, anchor, editMode),
    block: liveBlock,
    event: onboardingStore.event,
    Hint: HintPopover,
    Panel: OnboardingPanel,
  };
}
