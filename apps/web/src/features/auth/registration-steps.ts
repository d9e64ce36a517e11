import { type TPageData, type TSocialRegister, ZRegister } from "@app/core";
import { checkoutRegistrationStep } from "../billing";
import type { RegisterBody } from "./api";

/**
 * What the steps read of a registration, and the checkout's references they add: the e-mail form's
 * body, or a social sign-up's (no password, and the name and e-mail come from the provider later).
 */
export type RegistrationStepBody = Pick<
  RegisterBody,
  "name" | "email" | "dashboards" | "interval" | "coupons" | "order_ref" | "order_id"
>;

/**
 * A step that runs after validation and before the form is posted (docs/product.md §4 "Registration":
 * validate, then checkout when payment is enabled, then submit). Resolving false stops the registration.
 */
export type RegistrationStep = (body: RegistrationStepBody, config: TPageData["config"]) => Promise<boolean>;

/** Steps between validate and submit, in order: the card-payment checkout when payments are on. */
export const registrationSteps: RegistrationStep[] = [checkoutRegistrationStep];

/**
 * Runs every step; false as soon as one stops the registration. Both the form and the social buttons
 * come through here, so a social sign-up pays in the same checkout before the provider is asked.
 */
export async function runRegistrationSteps(
  body: RegistrationStepBody,
  config: TPageData["config"],
  steps: readonly RegistrationStep[] = registrationSteps,
): Promise<boolean> {
  for (const step of steps) {
    if (!(await step(body, config))) return false;
  }
  return true;
}

/**
 * A social sign-up's steps (docs/product.md §4): the form's own, on the page's plan and coupons; answers
 * what POST /register/{provider} posts (with the checkout's references), or null when a step stopped it.
 * A closed checkout rejects with its reason, as for the form.
 */
export async function socialSignUpSteps(
  input: TSocialRegister,
  typedEmail: string,
  config: TPageData["config"],
  steps: readonly RegistrationStep[] = registrationSteps,
): Promise<TSocialRegister | null> {
  const body: RegistrationStepBody = {
    // Nobody is named before the provider answers, so the checkout opens without a customer name
    // (Stripe asks for what it needs itself); a valid e-mail typed in the form pre-fills it.
    name: "",
    email: ZRegister.shape.email.safeParse(typedEmail).success ? typedEmail.trim() : "",
    dashboards: input.dashboards,
    interval: input.interval,
    coupons: JSON.stringify(input.coupons ?? []),
  };
  if (!(await runRegistrationSteps(body, config, steps))) return null;
  return { ...input, order_ref: body.order_ref, order_id: body.order_id };
}
