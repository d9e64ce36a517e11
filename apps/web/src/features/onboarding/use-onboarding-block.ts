import type { GuardInput } from "@app/core";
import { useOnboardingBridge } from "./bridge";

export type OnboardingBlock = NonNullable<GuardInput["onboardingBlock"]>;

/** Guard 4 of docs/product.md §2: the onboarding step that holds the user on the page they are on, if any. */
export function useOnboardingBlock(): OnboardingBlock | null {
  const { runtime } = useOnboardingBridge();
  return runtime?.running ? runtime.block : null;
}
