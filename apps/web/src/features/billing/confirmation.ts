/**
 * How long the subscription page keeps asking whether its paid checkout is confirmed, and how often.
 * Stripe's webhook usually comes within seconds and the server's own check of the session answers at
 * once, so a minute without either means something is wrong: the page then says what to do.
 */
export const CONFIRMATION_TIMING = { everyMs: 3_000, forMs: 60_000 };

export interface ConfirmationClock {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

const realClock: ConfirmationClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve();
      });
    }),
};

/**
 * Asks `check` (the server: is the payment in?) at once and then every `everyMs` until it says yes
 * (true) or `forMs` have passed (false). A check that fails (the server or Stripe unreachable) counts as
 * "not yet". Stops, answering false, when `signal` aborts (the page was left).
 */
export async function waitForConfirmation(
  check: () => Promise<boolean>,
  signal: AbortSignal,
  timing = CONFIRMATION_TIMING,
  clock: ConfirmationClock = realClock,
): Promise<boolean> {
  const deadline = clock.now() + timing.forMs;
  for (;;) {
    if (signal.aborted) return false;
    if (await check().catch(() => false)) return true;
    if (signal.aborted || clock.now() >= deadline) return false;
    await clock.sleep(Math.min(timing.everyMs, Math.max(0, deadline - clock.now())), signal);
  }
}
