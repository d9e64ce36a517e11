import type { OnboardingAnalyticsEvent } from "@app/core";
import { createOnboardingStore } from "./store";

declare global {
  interface Window {
    /** The tag manager's queue (docs/product.md §4: each onboarding change pushes an analytics event). */
    dataLayer?: unknown[];
  }
}

function pushToDataLayer(payload: OnboardingAnalyticsEvent): void {
  window.dataLayer ??= [];
  window.dataLayer.push(payload);
}

/** The tab's onboarding. The API client (and its contract schemas) loads with the first save, not before. */
export const onboardingStore = createOnboardingStore({
  push: pushToDataLayer,
  save: async (step) => (await import("../session/api")).submitUserData({ onboarding: step }),
});
