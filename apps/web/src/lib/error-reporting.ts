import type { TPageData } from "@app/core";
import { ApiError } from "./api";

export type ErrorReportingSettings = TPageData["config"]["errorReporting"];
export type ReportContext = Record<string, string>;
type Send = (error: unknown, context: ReportContext) => void;
type Loader = () => Promise<{ initErrorReporting(settings: NonNullable<ErrorReportingSettings>): Send }>;

// Sentry's SDK is a separate chunk, fetched only when the server hands out a DSN: the public
// dashboard's first load (bundle budget) never pays for it.
const loadSdk: Loader = () => import("./error-reporting-sentry");

/** null: disabled (no DSN); an array: the SDK is on its way and these wait for it. */
let waiting: Array<[unknown, ReportContext]> | null = null;
let send: Send | null = null;

/**
 * An uncaught error or rejection while the SDK is on its way: Sentry's own handlers are not installed
 * yet, so it waits with the reported ones instead of being lost.
 */
const early = (event: Event) =>
  waiting?.push([event instanceof PromiseRejectionEvent ? event.reason : (event as ErrorEvent).error, {}]);

/** Starts reporting when page data carries a DSN; without one nothing is loaded and errors are only logged. */
export async function startErrorReporting(settings: ErrorReportingSettings, load: Loader = loadSdk): Promise<void> {
  if (!settings || waiting || send) return;
  waiting = [];
  globalThis.addEventListener?.("error", early);
  globalThis.addEventListener?.("unhandledrejection", early);
  try {
    const sdk = await load();
    send = sdk.initErrorReporting(settings);
    for (const [error, context] of waiting) send(error, context);
  } catch (error) {
    console.error("error reporting could not start", error);
  } finally {
    globalThis.removeEventListener?.("error", early);
    globalThis.removeEventListener?.("unhandledrejection", early);
    waiting = null;
  }
}

/** Sends an error to error reporting when it is enabled (the caller logs or shows it as before). */
export function reportError(error: unknown, context: ReportContext = {}): void {
  if (send) send(error, context);
  else waiting?.push([error, context]);
}

/** Failures the product reports, and the statuses each one expects and ignores (docs/product.md §7, §8). */
const EXPECTED_STATUSES = {
  /** PDF export: 429 (too many exports) is an answer, not a fault. */
  "dashboard.pdf": [429],
  /** Removing a source: 404 means it is already gone. */
  "source.delete": [404],
} as const satisfies Record<string, readonly number[]>;
export type ReportedAction = keyof typeof EXPECTED_STATUSES;

/** Whether a failed action goes to error reporting: not a cancelled request, not an expected status. */
export function shouldReport(action: ReportedAction, error: unknown): boolean {
  if (error instanceof DOMException && error.name === "AbortError") return false;
  if (error instanceof Error && error.message === "canceled") return false;
  const expected: readonly number[] = EXPECTED_STATUSES[action];
  return !(error instanceof ApiError && expected.includes(error.status));
}

/** Reports a failed action unless its rule says the failure is expected. */
export function reportFailure(action: ReportedAction, error: unknown): void {
  if (shouldReport(action, error)) reportError(error, { action });
}

/** Back to the initial state (tests). */
export function resetErrorReporting(): void {
  waiting = null;
  send = null;
}
