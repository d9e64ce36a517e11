import { DEFAULT_SOURCE_FLOWS, type OnboardingFlow, type OnboardingSource } from "./flows";

export const QUESTIONNAIRE_FORCED_FLOW = "Your plan comes with the dashboard onboarding; it cannot be changed.";
export const QUESTIONNAIRE_AFTER_INTRO = "The onboarding cannot be changed after the intro.";

export interface QuestionnaireAnswer {
  /** The answer sent with the intro (the contract already refused unknown sources). */
  source: OnboardingSource;
  /** The flow the company's plan imposes (a lifetime deal: dashboard), or null. */
  forcedFlow: OnboardingFlow | null;
  /** The user had passed the intro before this request. */
  introPassed: boolean;
  /** The answer saved before, if any. */
  savedSource: string | null;
}

/**
 * Why a questionnaire answer may not be saved, or null (docs/product.md §3: the flow comes from the
 * questionnaire source). A lifetime deal keeps its forced flow, so only an answer naming that flow is
 * taken. After the intro the flow is under way and its step numbers mean that flow's steps: only the
 * answer already saved (a retried intro request) is taken, never a switch.
 */
export function questionnaireProblem(answer: QuestionnaireAnswer): string | null {
  if (answer.forcedFlow !== null && DEFAULT_SOURCE_FLOWS[answer.source] !== answer.forcedFlow)
    return QUESTIONNAIRE_FORCED_FLOW;
  if (answer.introPassed && answer.savedSource !== answer.source) return QUESTIONNAIRE_AFTER_INTRO;
  return null;
}
