import type { GuardInput } from "@app/core";

export type OnboardingBlock = NonNullable<GuardInput["onboardingBlock"]>;

/**
 * Guard 4 of docs/product.md §2: the onboarding step that holds the user on the page they are on.
 * Returns null until the onboarding feature is built; the router already acts on a non-null block.
 */
export function useOnboardingBlock(): OnboardingBlock | null {
  return null;
}
