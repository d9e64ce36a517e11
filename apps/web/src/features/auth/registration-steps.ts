import type { TPageData } from "@app/core";
import { checkoutRegistrationStep } from "../billing";
import type { RegisterBody } from "./api";

/**
 * A step that runs after validation and before the form is posted (docs/product.md §4 "Registration":
 * validate, then checkout when payment is enabled, then submit). Resolving false stops the registration.
 */
export type RegistrationStep = (body: RegisterBody, config: TPageData["config"]) => Promise<boolean>;

/** Steps between validate and submit, in order: the card-payment checkout when payments are on. */
export const registrationSteps: RegistrationStep[] = [checkoutRegistrationStep];

/** Runs every step; false as soon as one stops the registration. */
export async function runRegistrationSteps(body: RegisterBody, config: TPageData["config"]): Promise<boolean> {
  for (const step of registrationSteps) {
    if (!(await step(body, config))) return false;
  }
  return true;
}
