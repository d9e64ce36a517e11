import type { TAuthResult, TLogin, TRegister, TSetPassword, TSocialProvider, TSocialRegister } from "@app/core";
import { call } from "../../lib/api";
import { forgetSnapshots } from "../../lib/kept-snapshots";

/** The registration body on the wire: coupons travel as a JSON list string (docs/product.md §3). */
export type RegisterBody = Omit<TRegister, "coupons"> & { coupons: string };

export function login(body: TLogin): Promise<TAuthResult> {
  return call("login", { body });
}

export function register(body: RegisterBody): Promise<TAuthResult> {
  return call("register", { body });
}

/** docs/product.md §7 POST /register/{provider}: answers the provider's page to go to (consents and plan first). */
export function socialRegister(provider: TSocialProvider, body: TSocialRegister): Promise<TAuthResult> {
  return call("socialRegister", { params: { provider }, body });
}

/** POST /login/{provider}: answers the provider's page to go to. */
export function socialLogin(provider: TSocialProvider): Promise<TAuthResult> {
  return call("socialLogin", { params: { provider } });
}

export function setPassword(body: TSetPassword): Promise<TAuthResult> {
  return call("setPassword", { body });
}

/** docs/product.md §7: POST /logout, then a page reload whatever the answer. */
export async function logout(): Promise<void> {
  try {
    await call("logout");
  } catch {
    // Errors are ignored: the reload shows whatever state the session is in.
  }
  // The charts this browser kept drawn (lib/kept-snapshots.ts) go with the session.
  await forgetSnapshots();
  window.location.reload();
}

/** After signing in the page is loaded afresh, so the injected page data carries the new session. */
export function goTo(redirect: string): void {
  window.location.assign(redirect || "/");
}
