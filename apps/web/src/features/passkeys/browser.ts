import type {
  TPasskeyAssertion,
  TPasskeyAttestation,
  TPasskeyCreationOptions,
  TPasskeyRequestOptions,
} from "@app/core";
import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";

/**
 * The browser's WebAuthn prompts, started with the server's options (the contract's shapes are the
 * WebAuthn JSON forms, as @simplewebauthn/browser takes and answers them).
 */
export async function createCredential(options: TPasskeyCreationOptions): Promise<TPasskeyAttestation> {
  const answer = await startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
  return answer as TPasskeyAttestation;
}

export async function getAssertion(options: TPasskeyRequestOptions): Promise<TPasskeyAssertion> {
  const answer = await startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });
  return answer as TPasskeyAssertion;
}

/**
 * What to tell the person when the browser's prompt ended without an answer, or null when the error
 * is not the browser's (a server answer, shown as such). The names are those of the WebAuthn API's
 * DOMExceptions and @simplewebauthn/browser's own error codes.
 */
export function ceremonyErrorMessage(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: string }).code;
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" || error.name === "InvalidStateError") {
    return "This passkey is already registered with your account.";
  }
  if (error.name === "NotAllowedError" || error.name === "AbortError" || code === "ERROR_CEREMONY_ABORTED") {
    return "The passkey prompt was closed or timed out. Please try again.";
  }
  if (error.name === "SecurityError" || code === "ERROR_INVALID_DOMAIN" || code === "ERROR_INVALID_RP_ID") {
    return "Passkeys only work at this app's own address, opened over HTTPS (or on localhost).";
  }
  if (
    error.name === "NotSupportedError" ||
    /WebAuthn is not supported|does not support WebAuthn/i.test(error.message)
  ) {
    return "This browser or device cannot use passkeys.";
  }
  return null;
}
