/**
 * The two guided onboarding flows (docs/product.md §1, §2, §4): what each step asks, which user action
 * moves it on, where its tooltip hint points and which page it holds the user on.
 *
 * Step numbers are the ones the server stores (`users.onboarding_step`): 0 is the intro, 1 the first
 * guided step, and one past the last step (dashboard 6, mc 5) means the flow is finished.
 */

export const ONBOARDING_FLOWS = ["dashboard", "mc"] as const;
export type OnboardingFlow = (typeof ONBOARDING_FLOWS)[number];

/** Step 0: the user has not left the intro yet. Onboarding does not run there (docs/product.md §2). */
export const ONBOARDING_INTRO_STEP = 0;

/**
 * What the user did. The mc names are the ones Mission Control already publishes on the server's event
 * bus (`onboarding.event`), so the web can forward them unchanged.
 * - intro_passed: leaves step 0 in both flows (not listed in docs/product.md §4, which starts at the
 *   guided steps; without it nothing would ever leave the intro).
 */
export const ONBOARDING_EVENTS = [
  "intro_passed",
  "dashboard_created",
  "source_connected",
  "edit_mode_off",
  "date_range_changed",
  "url_copied",
  "pdf_downloaded",
  "group_created",
  "domain_added",
  "window_switched",
  "domain_snoozed",
] as const;
export type OnboardingEvent = (typeof ONBOARDING_EVENTS)[number];

export interface OnboardingStepDefinition {
  /** Stable name for analytics and the web (checklist keys, hint anchors). */
  key: string;
  /** Checklist line of the "Getting started" panel. */
  label: string;
  /** The step hint: the tooltip text, and the text after the block message of guard 4. */
  hint: string;
  /**
   * Where the tooltip hint sits (a `data-onboarding` anchor in the web) and on which route; null for the
   * create steps, which have no tooltip in docs/product.md §2 (the block holds the user on the form).
   */
  tooltip: { anchor: string; routeName: string } | null;
  /** The route this step holds the user on (docs/product.md §4: steps 1 and 2 only). */
  blocksOn: string | null;
  /**
   * Routes the held user may still go to because the step is done there: a data source is connected on
   * the company's sources page, so "Set a data source" would trap a user who has none if it held them on
   * the dashboard without it.
   */
  mayLeaveFor?: readonly string[];
  /** Any of these events finishes the step (docs/product.md §4). */
  advancesOn: readonly OnboardingEvent[];
  /** The dashboard's "set source" hint shows only while the dashboard is in edit mode (docs/product.md §4). */
  hintNeedsEditMode?: boolean;
}

export interface OnboardingFlowDefinition {
  flow: OnboardingFlow;
  /** Guided steps 1…n; index 0 holds step 1. */
  steps: readonly OnboardingStepDefinition[];
  /** The congratulations modal's text when the flow finishes. */
  completionMessage: string;
}

export const ONBOARDING_FLOW_DEFINITIONS: Readonly<Record<OnboardingFlow, OnboardingFlowDefinition>> = {
  dashboard: {
    flow: "dashboard",
    steps: [
      {
        key: "create_dashboard",
        label: "Create a dashboard",
        hint: "Create your first dashboard.",
        tooltip: null,
        blocksOn: "dashboards.create",
        advancesOn: ["dashboard_created"],
      },
      {
        key: "set_source",
        label: "Set a data source",
        hint: "Set a data source for your dashboard.",
        tooltip: { anchor: "set-source", routeName: "dashboard.show" },
        blocksOn: "dashboard.show",
        mayLeaveFor: ["company.sources"],
        advancesOn: ["source_connected"],
        hintNeedsEditMode: true,
      },
      {
        key: "reporting_mode",
        label: "Switch to reporting mode",
        hint: "Switch off edit mode to see your dashboard in reporting mode.",
        tooltip: { anchor: "reporting-mode-toggle", routeName: "dashboard.show" },
        blocksOn: null,
        advancesOn: ["edit_mode_off"],
      },
      {
        key: "date_range",
        label: "Set a date range",
        hint: "Pick the date range your report shows.",
        tooltip: { anchor: "date-range-picker", routeName: "dashboard.show" },
        blocksOn: null,
        advancesOn: ["date_range_changed"],
      },
      {
        key: "share_dashboard",
        label: "Share the dashboard",
        hint: "Copy the dashboard's URL or download it as a PDF to share it.",
        tooltip: { anchor: "share-menu", routeName: "dashboard.show" },
        blocksOn: null,
        advancesOn: ["url_copied", "pdf_downloaded"],
      },
    ],
    // Verbatim from docs/product.md §4.
    completionMessage:
      "Your first professional reporting dashboard has been successfully created and it's all smooth sailing from here on out!",
  },
  mc: {
    flow: "mc",
    steps: [
      {
        key: "create_group",
        label: "Create a group",
        hint: "Create your first group.",
        tooltip: null,
        blocksOn: "campaigns.create",
        advancesOn: ["group_created"],
      },
      {
        key: "add_domain",
        label: "Add a domain",
        hint: "Add the first domain to track in this group.",
        tooltip: { anchor: "add-domain", routeName: "campaign.show" },
        blocksOn: "campaign.show",
        advancesOn: ["domain_added"],
      },
      {
        key: "switch_window",
        label: "Switch between 7 and 30 days",
        hint: "Switch between the last 7 and the last 30 days.",
        tooltip: { anchor: "window-switch", routeName: "campaign.show" },
        blocksOn: null,
        advancesOn: ["window_switched"],
      },
      {
        key: "snooze_alerts",
        label: "Snooze alerts",
        hint: "Snooze a domain's alerts for a week.",
        tooltip: { anchor: "snooze-domain", routeName: "campaign.show" },
        blocksOn: null,
        advancesOn: ["domain_snoozed"],
      },
    ],
    // docs/product.md §4 gives only the gist (first domain added, weekly and monthly changes trackable).
    completionMessage:
      "Your first domain has been added to your group, and you can now track its weekly and monthly changes!",
  },
};

/** The congratulations texts by flow (docs/product.md §4). */
export const ONBOARDING_COMPLETION_MESSAGES: Readonly<Record<OnboardingFlow, string>> = {
  dashboard: ONBOARDING_FLOW_DEFINITIONS.dashboard.completionMessage,
  mc: ONBOARDING_FLOW_DEFINITIONS.mc.completionMessage,
};

/**
 * The intro questionnaire's answers ("What do you want to do first?"), the only sources the server saves:
 * build client dashboards, or watch domains in Mission Control.
 */
export const ONBOARDING_SOURCES = ["dashboard", "mc"] as const;
export type OnboardingSource = (typeof ONBOARDING_SOURCES)[number];

/** Questionnaire answers that pick a flow; anything else keeps the initial flow (docs/product.md §3). */
export const DEFAULT_SOURCE_FLOWS: Readonly<Record<string, OnboardingFlow>> = {
  dashboard: "dashboard",
  mc: "mc",
} satisfies Record<OnboardingSource, OnboardingFlow>;

/** Tooltip hints stop beyond this step (docs/product.md §4); both flows are finished before it anyway. */
export const ONBOARDING_LAST_HINT_STEP = 6;

export function isOnboardingFlow(value: unknown): value is OnboardingFlow {
  return typeof value === "string" && (ONBOARDING_FLOWS as readonly string[]).includes(value);
}

/** The step value that means "finished": one past the last guided step (dashboard 6, mc 5). */
export function finishedStep(flow: OnboardingFlow): number {
  return ONBOARDING_FLOW_DEFINITIONS[flow].steps.length + 1;
}

/** The definition of guided step `step` (1…n), or null for the intro and once finished. */
export function stepDefinition(flow: OnboardingFlow, step: number): OnboardingStepDefinition | null {
  if (!Number.isInteger(step) || step < 1) return null;
  return ONBOARDING_FLOW_DEFINITIONS[flow].steps[step - 1] ?? null;
}
