import { AsyncLocalStorage } from "node:async_hooks";

/**
 * One request a connector sent and the answer it got, as the provider client saw them. The live check
 * (connectors/check/) watches a query's exchanges to validate them against the provider's own
 * description and to record them; nothing else watches, and an unwatched call costs one lookup.
 */
export interface ProviderExchange {
  provider: string;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  /** The body as sent (JSON text or a form), absent when none. */
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  /** The answer as read: parsed JSON, text, or null when empty. */
  body: unknown;
}

type Observer = (exchange: ProviderExchange) => void;

// Per async context, not a global list: only the calls made inside `observeExchanges` are seen, whatever
// else the process does at the same time.
const observers = new AsyncLocalStorage<Observer>();

/** Runs `work`, handing every provider exchange made inside it to `observe`. */
export function observeExchanges<T>(observe: Observer, work: () => Promise<T>): Promise<T> {
  return observers.run(observe, work);
}

/** Called by the provider client for each answer it reads. */
export function reportAnswer(
  provider: string,
  sent: { method: string; url: string; headers: Record<string, string>; body: string | undefined },
  response: Response,
  body: unknown,
): void {
  const observe = observers.getStore();
  if (!observe) return;
  const responseHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    responseHeaders[name] = value;
  });
  observe({
    provider,
    method: sent.method,
    url: sent.url,
    requestHeaders: sent.headers,
    ...(sent.body === undefined ? {} : { requestBody: sent.body }),
    status: response.status,
    responseHeaders,
    body,
  });
}
