import { describe, expect, it } from "vitest";
import { allowedBeforeTwoFactorSetup, classifyCode, formatRecoveryCode } from "./rules";

describe("classifyCode", () => {
  it.each([
    ["123456", { kind: "totp", code: "123456" }],
    [" 123 456 ", { kind: "totp", code: "123456" }],
    ["123-456", { kind: "totp", code: "123456" }],
    ["12345", { kind: "invalid" }],
    ["1234567", { kind: "invalid" }],
    ["abcde-fghjk", { kind: "recovery", code: "abcdefghjk" }],
    ["ABCDE FGHJK", { kind: "recovery", code: "abcdefghjk" }],
    ["abcdefghjk", { kind: "recovery", code: "abcdefghjk" }],
    // Look-alikes are not in the alphabet, so a code with them was never issued.
    ["abcde-fghj0", { kind: "invalid" }],
    ["abcde-fghjkm", { kind: "invalid" }],
    ["", { kind: "invalid" }],
    ["------", { kind: "invalid" }],
  ])("%j → %j", (typed, expected) => {
    expect(classifyCode(typed)).toEqual(expected);
  });
});

describe("formatRecoveryCode", () => {
  it.each([["abcdefghjk", "abcde-fghjk"]])("%s → %s", (code, shown) => {
    expect(formatRecoveryCode(code)).toBe(shown);
    expect(classifyCode(shown)).toEqual({ kind: "recovery", code });
  });
});

describe("allowedBeforeTwoFactorSetup", () => {
  it.each([
    ["GET", "/api/page-data", true],
    ["GET", "/api/page-data?x=1", true],
    ["GET", "/api/two-factor", true],
    ["POST", "/api/two-factor/setup", true],
    ["POST", "/api/two-factor/enable", true],
    ["POST", "/logout", true],
    ["GET", "/dashboards", true],
    ["GET", "/api/company", false],
    ["PUT", "/api/company/two-factor", false],
    ["GET", "/api/dashboards", false],
    ["POST", "/api/page-data", false],
    ["GET", "/api/two-factorx", false],
    ["GET", "/api/users", false],
    ["GET", "/api/passkeys", true],
    ["POST", "/api/passkeys/options", true],
    ["POST", "/api/passkeys", true],
    ["PUT", "/api/passkeys/p1", false],
    ["DELETE", "/api/passkeys/p1", false],
    ["GET", "/api/passkeys/options", false],
    ["POST", "/api/passkeysx", false],
  ])("%s %s → %s", (method, path, allowed) => {
    expect(allowedBeforeTwoFactorSetup(method, path)).toBe(allowed);
  });
});
