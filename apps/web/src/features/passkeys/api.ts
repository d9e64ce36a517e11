import type {
  TAuthResult,
  TPasskey,
  TPasskeyAssertion,
  TPasskeyCreate,
  TPasskeyCreated,
  TPasskeyCreationOptions,
  TPasskeyRemove,
  TPasskeyRequestOptions,
} from "@app/core";
import { call } from "../../lib/api";

export async function fetchPasskeys(): Promise<TPasskey[]> {
  return (await call("passkeysList")).data;
}

export async function registrationOptions(): Promise<TPasskeyCreationOptions> {
  return (await call("passkeyRegistrationOptions", { body: {} })).data;
}

export async function createPasskey(body: TPasskeyCreate): Promise<TPasskeyCreated> {
  return (await call("passkeyCreate", { body })).data;
}

export async function renamePasskey(id: string, name: string): Promise<TPasskey> {
  return (await call("passkeyUpdate", { params: { id }, body: { name } })).data;
}

export async function removePasskey(id: string, body: TPasskeyRemove): Promise<void> {
  await call("passkeyDelete", { params: { id }, body });
}

/** Options for an assertion of one of the signed-in user's own passkeys (to confirm a removal). */
export async function ownAssertionOptions(): Promise<TPasskeyRequestOptions> {
  return (await call("passkeyVerifyOptions", { body: {} })).data;
}

/** The passwordless sign-in's options: any of the browser's passkeys for this site may answer. */
export async function signInOptions(): Promise<TPasskeyRequestOptions> {
  return (await call("passkeySignInOptions", { body: {} })).data;
}

export function passkeySignIn(response: TPasskeyAssertion): Promise<TAuthResult> {
  return call("passkeySignIn", { body: { response } });
}
