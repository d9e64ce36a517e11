import { matchRoute } from "@app/core";
import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { useModals } from "../../ui/modals";
import { usePageData } from "../session/hooks";
import { onboardingBridge, useOnboardingBridge } from "./bridge";
import { runtimeView, useOnboarding } from "./hooks";
import { onboardingStore } from "./instance";

/**
 * The onboarding of a signed-in user (docs/product.md §2, §4), loaded once one is: seeds the store from the
 * page data, tells it the page (route, public viewer, print), shows the pages what runs through the
 * bridge, and opens the congratulations message modal when a flow finishes.
 */
export function OnboardingRuntime() {
  const { user, onboarding } = usePageData();
  const { pathname } = useLocation();
  const { viewer } = useOnboardingBridge();
  const snapshot = useOnboarding();
  const modals = useModals();
  const shownFor = useRef<string | null>(null);
  const routeName = matchRoute(pathname)?.route.name ?? null;
  const userId = user?.id ?? null;
  const flow = onboarding?.flow ?? null;
  const step = onboarding?.step ?? null;
  const source = onboarding?.source ?? null;
  const forcedFlow = onboarding?.forcedFlow ?? null;

  useEffect(() => {
    onboardingStore.seed(userId, flow === null || step === null ? null : { flow, step, source, forcedFlow });
  }, [userId, flow, step, source, forcedFlow]);
  useEffect(() => {
    onboardingStore.setPage({ routeName, isPublic: viewer.isPublic, print: viewer.print });
  }, [routeName, viewer]);
  useEffect(() => {
    onboardingBridge.setRuntime(runtimeView(snapshot));
  }, [snapshot]);
  useEffect(() => () => onboardingBridge.setRuntime(null), []);

  const { congratulations } = snapshot;
  useEffect(() => {
    if (congratulations === null || shownFor.current === congratulations) return;
    shownFor.current = congratulations;
    void modals.message({ title: "Congratulations!", message: congratulations }).then(() => {
      shownFor.current = null;
      onboardingStore.closeCongratulations();
    });
  }, [congratulations, modals]);

  return null;
}
