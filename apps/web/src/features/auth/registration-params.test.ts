import { DEFAULT_REGISTRATION_DASHBOARDS, MAX_REGISTRATION_DASHBOARDS, ZRegister } from "@app/core";
import { describe, expect, it } from "vitest";
import { parseRegistrationParams, registrationFlow } from "./registration-params";

describe("parseRegistrationParams: dashboards", () => {
  it.each([
    ["", DEFAULT_REGISTRATION_DASHBOARDS],
    ["dashboards=40", 40],
    ["dashboards=0", 1],
    ["dashboards=abc", DEFAULT_REGISTRATION_DASHBOARDS],
    [`dashboards=${MAX_REGISTRATION_DASHBOARDS}`, MAX_REGISTRATION_DASHBOARDS],
    // A link asking for more than the server accepts is brought down to the maximum, not refused later.
    ["dashboards=1000000", MAX_REGISTRATION_DASHBOARDS],
  ])("%s → %i", (query, expected) => {
    expect(parseRegistrationParams(new URLSearchParams(query)).dashboards).toBe(expected);
  });

  it("the contract refuses one above the maximum on the dashboards field", () => {
    const result = ZRegister.safeParse({
      name: "Ada",
      email: "ada@example.com",
      password: "secret-pass-1",
      password_confirmation: "secret-pass-1",
      terms_consent: true,
      age_consent: true,
      dashboards: MAX_REGISTRATION_DASHBOARDS + 1,
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual(["dashboards"]);
  });
});

describe("registrationFlow: the AppSumo flow is the dashboard flow", () => {
  it.each([
    ["mc", [], "mc"],
    ["mc", ["price.discount", "dashboards.bonus"], "mc"],
    ["mc", ["ltd.appsumo"], "dashboard"],
    ["dashboard", ["ltd.appsumo"], "dashboard"],
    ["dashboard", [], "dashboard"],
  ] as const)("source %s with %j → %s", (flow, types, expected) => {
    expect(registrationFlow(flow, types)).toBe(expected);
  });
});
