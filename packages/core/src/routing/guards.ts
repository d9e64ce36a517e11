import { TWO_FACTOR_SETUP_PATH } from "../two-factor/rules";
import type { RouteDefinition } from "./routes";

export interface GuardUser {
  id: string;
  roleName: string;
  termsConsent: boolean;
  ageConsent: boolean;
  introPassed: boolean;
}

export interface GuardInput {
  route: RouteDefinition;
  params: Record<string, string>;
  user: GuardUser | null;
  /** Path of the page the user is on now (for the onboarding block), if any. */
  fromRouteName?: string | null;
  /** Guard 4: the onboarding step that holds the user on a route, filled by the onboarding feature. */
  onboardingBlock?: ((to: RouteDefinition, fromRouteName: string | null) => string | null) | null;
  /** The user's company requires two-factor and the user has none (page data's session). */
  twoFactorSetupRequired?: boolean;
}

export type GuardDecision =
  | { kind: "allow" }
  | { kind: "redirect"; to: string; reason: "login" | "consent" | "intro" | "admin" | "guest" | "twoFactor" }
  | { kind: "block"; message: string };

export const LOGIN_PATH = "/login";
export const ONBOARDING_BLOCK_MESSAGE = "Please complete current step to continue.";

/**
 * The navigation guards of docs/product.md §2, in the product's order:
 * 1 guests only on error pages and 'dashboard' routes; 2 consents; 3 intro; 4 onboarding block; 5 admin-only.
 */
export function decideNavigation(input: GuardInput): GuardDecision {
  const { route, user, params } = input;

  if (route.guestOnly) {
    return user ? { kind: "redirect", to: "/dashboards", reason: "guest" } : { kind: "allow" };
  }

  // 1. Unauthenticated: error pages and routes whose name contains 'dashboard' only.
  if (!user) {
    if (route.errorPage || route.name.includes("dashboard")) return { kind: "allow" };
    return { kind: "redirect", to: LOGIN_PATH, reason: "login" };
  }
  if (route.errorPage) return { kind: "allow" };

  // Before all the rest: a member whose company requires two-factor sets it up first, and sees nothing else.
  if (input.twoFactorSetupRequired) {
    if (route.name === "twoFactor.setup") return { kind: "allow" };
    return { kind: "redirect", to: TWO_FACTOR_SETUP_PATH, reason: "twoFactor" };
  }

  // The set-up page keeps a user who has just met the requirement there: it shows their recovery codes
  // once, and the consent and intro guards below would otherwise take them away the moment the page
  // data says the requirement is met. Their next navigation meets those guards as usual.
  if (route.name === "twoFactor.setup") return { kind: "allow" };

  // 2. Both consents, except on the user and subscription pages.
  const consented = user.termsConsent && user.ageConsent;
  if (!consented && route.name !== "user" && route.name !== "company.subscription") {
    return { kind: "redirect", to: `/users/${user.id}`, reason: "consent" };
  }

  // 3. The intro comes before everything (a user still giving consent stays where guard 2 put them);
  // once passed, /intro leads to company sources.
  if (!user.introPassed && consented && route.name !== "intro") {
    return { kind: "redirect", to: "/intro", reason: "intro" };
  }
  if (user.introPassed && route.name === "intro") {
    return { kind: "redirect", to: "/company/sources", reason: "intro" };
  }

  // 4. An onboarding step may hold the user on the page they are on.
  if (input.onboardingBlock) {
    const hint = input.onboardingBlock(route, input.fromRouteName ?? null);
    if (hint !== null) return { kind: "block", message: `${ONBOARDING_BLOCK_MESSAGE} ${hint}`.trim() };
  }

  // 5. Admin-only routes send non-admins to the dashboards list.
  const isAdmin = user.roleName === "admin";
  if (route.access === "admin" && !isAdmin) {
    return { kind: "redirect", to: "/dashboards", reason: "admin" };
  }
  if (route.access === "adminOrSelf" && !isAdmin && params.userId !== user.id) {
    return { kind: "redirect", to: "/dashboards", reason: "admin" };
  }
  return { kind: "allow" };
}
