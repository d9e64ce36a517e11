import { decideNavigation, matchRoute } from "@app/core";
import { useEffect, useRef } from "react";
import { useBlocker } from "react-router";
import { useOnboardingBlock } from "../features/onboarding/use-onboarding-block";
import { useCurrentUser } from "../features/session/hooks";
import { useModals } from "../ui/modals";

/**
 * Guard 4 of docs/product.md §2: when an onboarding step holds the user on the current page, the navigation
 * is cancelled and a message modal says why.
 */
export function useNavigationBlock(): void {
  const user = useCurrentUser();
  const onboardingBlock = useOnboardingBlock();
  const modals = useModals();
  const message = useRef<string | null>(null);

  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (!onboardingBlock || currentLocation.pathname === nextLocation.pathname) return false;
    const to = matchRoute(nextLocation.pathname);
    if (!to) return false;
    const from = matchRoute(currentLocation.pathname);
    const decision = decideNavigation({
      route: to.route,
      params: to.params,
      user,
      fromRouteName: from?.route.name ?? null,
      onboardingBlock,
    });
    if (decision.kind !== "block") return false;
    message.current = decision.message;
    return true;
  });

  useEffect(() => {
    if (blocker.state !== "blocked") return;
    blocker.reset();
    if (message.current) void modals.message({ title: "Getting started", message: message.current });
  }, [blocker, modals]);
}
