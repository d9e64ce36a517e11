import type { ReactNode } from "react";
import { useOnboardingBridge } from "../bridge";

/*
 * The pieces of onboarding that pages render in place. They read the bridge only (no page data, no
 * router): a public dashboard loads nothing more for them; the hint popover and the panel come with the
 * runtime, for signed-in users.
 */

interface AnchorProps {
  /** The step's anchor in core's flows (e.g. "date-range-picker"). */
  anchor: string;
  /** Dashboard edit mode: the "set source" hint shows only in it (docs/product.md §4). */
  editMode?: boolean;
  children: ReactNode;
}

/**
 * Marks a control a tooltip hint points at (docs/product.md §2, §4). Until a flow runs it renders the
 * control alone; then it keeps one wrapper for the whole flow, so the control is not remounted each time
 * its hint opens or closes.
 */
export function OnboardingAnchor({ anchor, editMode = false, children }: AnchorProps) {
  const { runtime } = useOnboardingBridge();
  if (!runtime?.running) return <>{children}</>;
  const { Hint } = runtime;
  return (
    <Hint anchor={anchor} hint={runtime.hintAt(anchor, editMode)}>
      {children}
    </Hint>
  );
}

/** Where a page frame puts the Getting started panel (above its content); empty when no flow runs. */
export function OnboardingPanelSlot() {
  const { runtime } = useOnboardingBridge();
  if (!runtime?.running) return null;
  const { Panel } = runtime;
  return <Panel />;
}
