/** The part of Stripe.js the embedded checkout uses (docs/decisions.md "Billing: … Stripe checkout"). */
export interface EmbeddedCheckout {
  mount(target: HTMLElement | string): void;
  destroy(): void;
}
export interface StripeJs {
  initEmbeddedCheckout(options: {
    fetchClientSecret: () => Promise<string>;
    onComplete?: () => void;
  }): Promise<EmbeddedCheckout>;
}
type StripeFactory = (key: string) => StripeJs;

declare global {
  interface Window {
    Stripe?: StripeFactory;
  }
}

let loading: Promise<StripeFactory> | null = null;

/**
 * Stripe.js from page data's `config.stripeJsUrl` (Stripe's own address in production, the fake's shim
 * offline), added as one script tag the first time a checkout opens; a failed load may be retried.
 */
export function loadStripeJs(url: string): Promise<StripeFactory> {
  if (window.Stripe) return Promise.resolve(window.Stripe);
  loading ??= new Promise<StripeFactory>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = url;
    script.async = true;
    script.onload = () => (window.Stripe ? resolve(window.Stripe) : reject(new Error("Stripe.js did not start")));
    script.onerror = () => {
      script.remove();
      reject(new Error("Stripe.js could not be loaded"));
    };
    document.head.appendChild(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
