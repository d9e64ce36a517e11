import type {
  TAuthResult,
  TCompanyTwoFactor,
  TPasskeyAssertion,
  TPasskeyRequestOptions,
  TRecoveryCodes,
  TTwoFactorConfirm,
  TTwoFactorSetup,
  TTwoFactorStatus,
} from "@app/core";
import { call } from "../../lib/api";

export const twoFactorKey = ["two-factor"] as const;

export async function twoFactorStatus(): Promise<TTwoFactorStatus> {
  return (await call("twoFactorShow")).data;
}

export async function startSetup(): Promise<TTwoFactorSetup> {
  return (await call("twoFactorSetup", { body: {} })).data;
}

export async function enable(code: string): Promise<TRecoveryCodes> {
  return (await call("twoFactorEnable", { body: { code } })).data;
}

export async function disable(body: TTwoFactorConfirm): Promise<TTwoFactorStatus> {
  return (await call("twoFactorDisable", { body })).data;
}

export async function regenerateRecoveryCodes(body: TTwoFactorConfirm): Promise<TRecoveryCodes> {
  return (await call("twoFactorRecoveryCodes", { body })).data;
}

export async function setCompanyRequirement(required: boolean): Promise<TCompanyTwoFactor> {
  return (await call("companyTwoFactor", { body: { required } })).data;
}

/** POST /login/two-factor: the pending sign-in's cookie goes along; answers where to go, as login does. */
export function secondStep(code: string): Promise<TAuthResult> {
  return call("twoFactorLogin", { body: { code } });
}

/** The second step with a passkey: options allowing only the pending user's passkeys. */
export async function secondStepPasskeyOptions(): Promise<TPasskeyRequestOptions> {
  return (await call("twoFactorPasskeyOptions", { body: {} })).data;
}

/** The second step with a passkey: the browser's answer completes the pending sign-in. */
export function secondStepPasskey(response: TPasskeyAssertion): Promise<TAuthResult> {
  return call("twoFactorPasskey", { body: { response } });
}
