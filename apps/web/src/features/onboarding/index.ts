export { onboardingEvent, useOnboardingViewer } from "./bridge";
export { OnboardingRuntimeLoader } from "./components/OnboardingRuntimeLoader";
export { OnboardingAnchor, OnboardingPanelSlot } from "./components/OnboardingUi";
export { useOnboardingBlock } from "./use-onboarding-block";
