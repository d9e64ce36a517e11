import { CHECKOUT_TEXTS, type TPageData, type TSocialRegister } from "@app/core";
import { describe, expect, it } from "vitest";
import { CheckoutFailed } from "../billing";
import { type RegistrationStep, type RegistrationStepBody, socialSignUpSteps } from "./registration-steps";

const config: TPageData["config"] = {
  maxPdfWidgets: 10,
  paymentEnabled: true,
  stripeJsUrl: "http://127.0.0.1/stripe.js",
  socialProviders: ["google"],
  errorReporting: null,
};

const input: TSocialRegister = {
  terms_consent: true,
  age_consent: true,
  coupons: ["LAUNCH"],
  dashboards: 6,
  interval: 12,
  flow: "dashboard",
};

/** A checkout step that records what it was given and completes with these references. */
function paying(seen: RegistrationStepBody[]): RegistrationStep {
  return async (body) => {
    seen.push({ ...body });
    body.order_ref = "cs_test_1";
    body.order_id = "signed-1";
    return true;
  };
}

describe("socialSignUpSteps (docs/product.md §4: validate, pay, then the provider)", () => {
  it("runs the form's steps on the page's plan and coupons, and posts the checkout's references", async () => {
    const seen: RegistrationStepBody[] = [];
    const posted = await socialSignUpSteps(input, " pam@agency.example ", config, [paying(seen)]);
    // No name before the provider answers; the typed e-mail pre-fills the checkout.
    expect(seen).toEqual([
      { name: "", email: "pam@agency.example", dashboards: 6, interval: 12, coupons: JSON.stringify(["LAUNCH"]) },
    ]);
    expect(posted).toEqual({ ...input, order_ref: "cs_test_1", order_id: "signed-1" });
  });

  it.each([
    ["", ""],
    ["not an address", ""],
    ["someone@example.com", "someone@example.com"],
  ])("e-mail field %j pre-fills the checkout with %j", async (typed, expected) => {
    const seen: RegistrationStepBody[] = [];
    await socialSignUpSteps(input, typed, config, [paying(seen)]);
    expect(seen[0]?.email).toBe(expected);
  });

  it("a step that stops the registration stops the sign-up: nothing to post", async () => {
    const stop: RegistrationStep = async () => false;
    expect(await socialSignUpSteps(input, "", config, [stop])).toBeNull();
  });

  it("a closed checkout rejects with its reason, as for the form", async () => {
    const closed: RegistrationStep = async () => {
      throw new CheckoutFailed(CHECKOUT_TEXTS.closed);
    };
    await expect(socialSignUpSteps(input, "", config, [closed])).rejects.toThrow(CHECKOUT_TEXTS.closed);
  });

  it("without steps that pay (payments off) it posts no references", async () => {
    const free: RegistrationStep = async () => true;
    const posted = await socialSignUpSteps({ ...input, coupons: undefined }, "", config, [free]);
    expect(posted).toEqual({ ...input, coupons: undefined, order_ref: undefined, order_id: undefined });
  });
});
