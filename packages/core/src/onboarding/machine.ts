import { type GuardInput, ONBOARDING_BLOCK_MESSAGE } from "../routing/guards";
import {
  DEFAULT_SOURCE_FLOWS,
  finishedStep,
  isOnboardingFlow,
  ONBOARDING_FLOW_DEFINITIONS,
  ONBOARDING_INTRO_STEP,
  ONBOARDING_LAST_HINT_STEP,
  type OnboardingEvent,
  type OnboardingFlow,
  stepDefinition,
} from "./flows";

/** The onboarding state of docs/product.md §3 (the web keeps `hasBack`, a screen concern, itself). */
export interface OnboardingState {
  flow: OnboardingFlow;
  /** 0 intro, 1…n guided steps, n + 1 finished. */
  step: number;
  /** The questionnaire answer the flow came from, if the user gave one. */
  questionnaire: { source: string } | null;
}

export interface InitialStateInput {
  /** `users.onboarding_step` from the page data; null/undefined for a user the server has no step for. */
  serverStep: number | null | undefined;
  /** The flow chosen at registration (page data `onboarding.flow`). */
  flow: OnboardingFlow;
  /** The intro questionnaire's source answer, when there is one. */
  questionnaireSource?: string | null;
  /** Which questionnaire answers pick which flow (default: the flow names themselves). */
  sourceFlows?: Readonly<Record<string, OnboardingFlow>>;
  /** A flow the company's plan imposes (a lifetime deal: dashboard, docs/product.md §2); wins over any answer. */
  forcedFlow?: OnboardingFlow | null;
}

/**
 * The state the web starts from (docs/product.md §3): the flow comes from the questionnaire source when it
 * names one, else the initial flow (a forced flow wins over both); the step from the server, else 0. A server value the machine cannot
 * hold (negative, fractional) restarts at the intro; one past the end means finished, so it is capped there.
 */
export function initialState(input: InitialStateInput): OnboardingState {
  const sourceFlows = input.sourceFlows ?? DEFAULT_SOURCE_FLOWS;
  const source = input.questionnaireSource?.trim() || null;
  const fromSource = source !== null && Object.hasOwn(sourceFlows, source) ? sourceFlows[source] : undefined;
  const flow = input.forcedFlow ?? (isOnboardingFlow(fromSource) ? fromSource : input.flow);
  const raw = input.serverStep;
  const step =
    typeof raw === "number" && Number.isInteger(raw) && raw >= ONBOARDING_INTRO_STEP
      ? Math.min(raw, finishedStep(flow))
      : ONBOARDING_INTRO_STEP;
  return { flow, step, questionnaire: source === null ? null : { source } };
}

/** docs/product.md §4, §9: "completed" means past the first two steps (the create step and the source/domain). */
export function isCompleted(step: number): boolean {
  return step > 2;
}

/** Every guided step is done: the completion message shows and nothing moves any more. */
export function isFinished(state: Pick<OnboardingState, "flow" | "step">): boolean {
  return state.step >= finishedStep(state.flow);
}

/** The `window.dataLayer.push` payload for one step change (docs/product.md §4: every change pushes one). */
export interface OnboardingAnalyticsEvent {
  event: "onboarding_step";
  onboarding_flow: OnboardingFlow;
  /** The step reached. */
  onboarding_step: number;
  /** "intro", the step's key (e.g. "set_source") or "finished". */
  onboarding_step_name: string;
  onboarding_previous_step: number;
  /** The user action that moved the step, or "set" for a direct `setStep`. */
  onboarding_trigger: OnboardingEvent | "set";
  onboarding_finished: boolean;
}

export interface OnboardingTransition {
  state: OnboardingState;
  changed: boolean;
  /** This change finished the flow: open the congratulations modal. */
  finishedNow: boolean;
  /** Push to `window.dataLayer` when not null. */
  analyticsEvent: OnboardingAnalyticsEvent | null;
  /** Send `POST /api/user/data {onboarding: state.step}` (docs/product.md §4, §7: only above step 0). */
  save: boolean;
}

function unchanged(state: OnboardingState): OnboardingTransition {
  return { state, changed: false, finishedNow: false, analyticsEvent: null, save: false };
}

function stepName(flow: OnboardingFlow, step: number): string {
  if (step <= ONBOARDING_INTRO_STEP) return "intro";
  return stepDefinition(flow, step)?.key ?? "finished";
}

function moveTo(state: OnboardingState, step: number, trigger: OnboardingEvent | "set"): OnboardingTransition {
  const next: OnboardingState = { ...state, step };
  const finished = isFinished(next);
  return {
    state: next,
    changed: true,
    finishedNow: finished,
    analyticsEvent: {
      event: "onboarding_step",
      onboarding_flow: state.flow,
      onboarding_step: step,
      onboarding_step_name: stepName(state.flow, step),
      onboarding_previous_step: state.step,
      onboarding_trigger: trigger,
      onboarding_finished: finished,
    },
    save: step > ONBOARDING_INTRO_STEP,
  };
}

/** The events that finish the step the user is on now (none once finished). */
export function eventsForStep(state: Pick<OnboardingState, "flow" | "step">): readonly OnboardingEvent[] {
  if (isFinished(state)) return [];
  if (state.step === ONBOARDING_INTRO_STEP) return ["intro_passed"];
  return stepDefinition(state.flow, state.step)?.advancesOn ?? [];
}

/**
 * One user action (docs/product.md §4). Only an event of the current step moves on, by exactly one step:
 * a date range changed while the user should still connect a source does not skip ahead, and the same
 * action repeated later does nothing. Once finished nothing changes.
 */
export function advance(state: OnboardingState, event: OnboardingEvent): OnboardingTransition {
  if (!eventsForStep(state).includes(event)) return unchanged(state);
  return moveTo(state, state.step + 1, event);
}

/**
 * Sets the step directly (e.g. another tab reported progress). Nothing once finished; never backwards
 * after the intro; a value past the end means finished; anything not a whole number ≥ 0 is ignored.
 */
export function setStep(state: OnboardingState, step: number): OnboardingTransition {
  if (isFinished(state) || !Number.isInteger(step) || step < ONBOARDING_INTRO_STEP) return unchanged(state);
  const target = Math.min(step, finishedStep(state.flow));
  if (target <= state.step) return unchanged(state);
  return moveTo(state, target, "set");
}

export interface HintContext {
  /** The route the user is on; tooltips point at elements of one page. */
  routeName: string;
  /** Dashboard edit mode (the "set source" hint needs it). */
  editMode: boolean;
}

export interface OnboardingHint {
  step: number;
  /** The `data-onboarding` anchor the tooltip points at. */
  anchor: string;
  text: string;
}

/**
 * The tooltip hint to show now (docs/product.md §2, §4), or null: none on the intro, for the create steps,
 * on other pages than the step's, for "set source" outside edit mode, once finished or beyond step 6.
 * Dismissing it with its ok button is the web's concern.
 */
export function hintFor(state: OnboardingState, context: HintContext): OnboardingHint | null {
  if (isFinished(state) || state.step > ONBOARDING_LAST_HINT_STEP) return null;
  const definition = stepDefinition(state.flow, state.step);
  if (!definition?.tooltip || definition.tooltip.routeName !== context.routeName) return null;
  if (definition.hintNeedsEditMode && !context.editMode) return null;
  return { step: state.step, anchor: definition.tooltip.anchor, text: definition.hint };
}

export interface OnboardingBlock {
  /** The route the current step holds the user on. */
  routeName: string;
  /** Routes the user may leave it for, where the step is done (the sources page for "set a data source"). */
  mayLeaveFor: readonly string[];
  hint: string;
  /** The message modal's text when the user tries to leave (docs/product.md §2, guard 4). */
  message: string;
}

/** The page the current step holds the user on (docs/product.md §4: step 1 and step 2 only), whatever page they are on. */
export function blockedRoute(state: Pick<OnboardingState, "flow" | "step">): OnboardingBlock | null {
  if (isFinished(state)) return null;
  const definition = stepDefinition(state.flow, state.step);
  if (!definition?.blocksOn) return null;
  return {
    routeName: definition.blocksOn,
    mayLeaveFor: definition.mayLeaveFor ?? [],
    hint: definition.hint,
    message: `${ONBOARDING_BLOCK_MESSAGE} ${definition.hint}`,
  };
}

/**
 * The block that applies while the user is on `currentRoute`, or null. A step only holds a user who is
 * on its page: at step 1 a user on the sources page may still go to the create page.
 */
export function blockFor(
  state: Pick<OnboardingState, "flow" | "step">,
  currentRoute: string | null,
): OnboardingBlock | null {
  const block = blockedRoute(state);
  return block !== null && block.routeName === currentRoute ? block : null;
}

/**
 * Guard 4's callback (`GuardInput.onboardingBlock`): leaving the held page for another route returns the
 * step hint, which the guard appends to its message. Moving between two pages of the same route (another
 * dashboard) is not leaving it, nor is going where the step is done (`mayLeaveFor`).
 */
export function onboardingGuardBlock(
  state: Pick<OnboardingState, "flow" | "step">,
): NonNullable<GuardInput["onboardingBlock"]> {
  return (to, fromRouteName) => {
    const block = blockFor(state, fromRouteName);
    if (block === null || to.name === block.routeName || block.mayLeaveFor.includes(to.name)) return null;
    return block.hint;
  };
}

/** Routes onboarding never runs on (docs/product.md §2: the intro page and the print view); the embed is a public view. */
export const ONBOARDING_EXCLUDED_ROUTES: readonly string[] = ["intro", "dashboard.print", "dashboard.embedded"];

export interface RunsOnInput {
  routeName: string;
  /** The viewer is a guest or a member of another company on a public dashboard. */
  isPublic: boolean;
  /** Print rendering, whatever the route. */
  print: boolean;
  excludedRoutes?: readonly string[];
}

/** Whether onboarding (panel, hints, block) runs on this page (docs/product.md §2). */
export function runsOn(input: RunsOnInput): boolean {
  const excluded = input.excludedRoutes ?? ONBOARDING_EXCLUDED_ROUTES;
  return !input.isPublic && !input.print && !excluded.includes(input.routeName);
}

export interface OnboardingProgress {
  done: number;
  total: number;
  /** 0–100, whole numbers, for the progress bar. */
  percent: number;
  checklist: Array<{ step: number; key: string; label: string; done: boolean; current: boolean }>;
}

/** The "Getting started" panel's progress bar and checklist (docs/product.md §2). */
export function onboardingProgress(state: Pick<OnboardingState, "flow" | "step">): OnboardingProgress {
  const steps = ONBOARDING_FLOW_DEFINITIONS[state.flow].steps;
  const done = Math.max(0, Math.min(steps.length, state.step - 1));
  return {
    done,
    total: steps.length,
    percent: Math.round((done / steps.length) * 100),
    checklist: steps.map((definition, index) => ({
      step: index + 1,
      key: definition.key,
      label: definition.label,
      done: index + 1 < state.step,
      current: index + 1 === state.step,
    })),
  };
}

/** The congratulations text, once finished (docs/product.md §4). */
export function completionMessage(state: Pick<OnboardingState, "flow" | "step">): string | null {
  return isFinished(state) ? ONBOARDING_FLOW_DEFINITIONS[state.flow].completionMessage : null;
}
