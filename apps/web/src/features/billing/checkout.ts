import { CHECKOUT_TEXTS, type TPaymentPayload } from "@app/core";
import { useSyncExternalStore } from "react";

/** What a completed checkout hands back (docs/product.md §4): the session and the server's reference of it. */
export interface CheckoutCompleted {
  order_ref: string;
  order_id: string;
}

/** The checkout stopped: closed before paying, or Stripe.js could not load; `message` is shown to the user. */
export class CheckoutFailed extends Error {
  override name = "CheckoutFailed";
}

/** The failure text of an error, when it is a checkout's; null for anything else. */
export function checkoutFailureText(error: unknown): string | null {
  return error instanceof CheckoutFailed ? error.message : null;
}

/** The checkout being shown (one at a time), read by CheckoutHost. */
export interface OpenCheckout {
  checkout: TPaymentPayload;
  jsUrl: string;
  closedText: string;
  settle(result: { completed: true } | { completed: false; reason: string }): void;
}

let current: OpenCheckout | null = null;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

/** The open checkout, for the host component that shows it. */
export function useOpenCheckout(): OpenCheckout | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}

/**
 * Shows Stripe's embedded checkout for `checkout` in a modal (a CheckoutHost must be on the page) and
 * resolves once it is paid, with `order` (the references the server answered with). Closing the modal
 * first rejects with CheckoutFailed and `closedText` (docs/product.md §8: closing without an order
 * reference or id counts as failure).
 */
export function openCheckout<T>(
  checkout: TPaymentPayload,
  options: { jsUrl: string | null; order: T; closedText?: string },
): Promise<T> {
  const { jsUrl } = options;
  if (!jsUrl) return Promise.reject(new CheckoutFailed(CHECKOUT_TEXTS.loadFailed));
  return new Promise<T>((resolve, reject) => {
    current = {
      checkout,
      jsUrl,
      closedText: options.closedText ?? CHECKOUT_TEXTS.closed,
      settle(result) {
        current = null;
        emit();
        if (result.completed) resolve(options.order);
        else reject(new CheckoutFailed(result.reason));
      },
    };
    emit();
  });
}
