import { lazy, Suspense } from "react";
import { usePageData } from "../../session/hooks";

const OnboardingRuntime = lazy(async () => ({ default: (await import("../runtime")).OnboardingRuntime }));

/** Mounted once at the root (inside the modals): loads the onboarding runtime for a signed-in user only. */
export function OnboardingRuntimeLoader() {
  const { user, onboarding } = usePageData();
  if (user === null || onboarding === null) return null;
  return (
    <Suspense fallback={null}>
      <OnboardingRuntime />
    </Suspense>
  );
}
