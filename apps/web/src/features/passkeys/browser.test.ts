import { describe, expect, it } from "vitest";
import { ceremonyErrorMessage } from "./browser";

function named(name: string, message = "", code?: string): Error {
  const error = new Error(message);
  error.name = name;
  if (code) Object.assign(error, { code });
  return error;
}

describe("ceremonyErrorMessage", () => {
  it.each([
    [named("NotAllowedError"), "The passkey prompt was closed or timed out. Please try again."],
    [named("AbortError"), "The passkey prompt was closed or timed out. Please try again."],
    [named("Error", "", "ERROR_CEREMONY_ABORTED"), "The passkey prompt was closed or timed out. Please try again."],
    [named("InvalidStateError"), "This passkey is already registered with your account."],
    [
      named("Error", "", "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED"),
      "This passkey is already registered with your account.",
    ],
    [named("SecurityError"), "Passkeys only work at this app's own address, opened over HTTPS (or on localhost)."],
    [named("Error", "WebAuthn is not supported in this browser"), "This browser or device cannot use passkeys."],
    [named("Error", "Something else went wrong"), null],
    [named("NotSupportedError"), "This browser or device cannot use passkeys."],
    [new TypeError("Failed to fetch"), null],
    ["a string", null],
  ])("%s → %s", (error, expected) => {
    expect(ceremonyErrorMessage(error)).toBe(expected);
  });
});
