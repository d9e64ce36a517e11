import {
  DEFAULT_SOURCE_FLOWS,
  initialState,
  ONBOARDING_SOURCES,
  type OnboardingFlow,
  type OnboardingSource,
  routeByName,
  type TPageData,
} from "@app/core";

/** The intro questionnaire's answers, in the order the intro lists them (docs/product.md §3 questionnaire). */
export const INTRO_ANSWERS: ReadonlyArray<{ source: OnboardingSource; title: string; text: string }> = [
  {
    source: "dashboard",
    title: "Build reporting dashboards for my clients",
    text: "Connect a data source, build a dashboard and share it as a link or a PDF.",
  },
  {
    source: "mc",
    title: "Watch my clients' domains in Mission Control",
    text: "Group your clients' domains and get alerted when their numbers change.",
  },
];

/**
 * Where the user goes once past the intro: where the chosen flow's step 1 can be done. The dashboard flow
 * starts on the company's sources (docs/product.md §2: "/intro redirects to company sources"), which its
 * step 1 does not hold (core's blockFor: only the create page does), so the user may connect a source
 * first. The mc flow starts where its step 1 (create a group) is done and held.
 */
export function afterIntroPath(flow: OnboardingFlow): string {
  return routeByName(flow === "mc" ? "campaigns.create" : "company.sources").path;
}

export interface IntroQuestion {
  /** Whether the intro asks "What do you want to do first?" at all. */
  offered: boolean;
  /** The answer preselected: the one given before, else the registration's flow. */
  initial: OnboardingSource;
}

/**
 * The intro's question for this user. Not offered when the company's plan forces a flow (a lifetime deal
 * keeps the dashboard flow, docs/product.md §2: asking would promise a choice the server refuses), nor to
 * a member who is not an admin: Mission Control's first step creates a group, which only admins may do.
 */
export function introQuestion(onboarding: TPageData["onboarding"], isAdmin: boolean): IntroQuestion {
  const flow = onboarding
    ? initialState({
        serverStep: onboarding.step,
        flow: onboarding.flow,
        questionnaireSource: onboarding.source,
        forcedFlow: onboarding.forcedFlow,
      }).flow
    : "dashboard";
  const initial = ONBOARDING_SOURCES.find((source) => DEFAULT_SOURCE_FLOWS[source] === flow) ?? "dashboard";
  return { offered: onboarding !== null && onboarding.forcedFlow === null && isAdmin, initial };
}
