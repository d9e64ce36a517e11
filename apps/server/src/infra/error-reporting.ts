import { scrubErrorEvent } from "@app/core";
import type { Logger } from "pino";

/** Where an error happened, so a report leads back to it without carrying the request itself. */
export interface ErrorContext {
  /** The route's pattern (`/api/sources/:id`), never the raw URL. */
  route?: string;
  method?: string;
  /** A job's name, for errors of jobs. */
  job?: string;
  /** The user's id (no name, no e-mail address). */
  userId?: string;
}

/**
 * Error reporting (Sentry). Without a DSN errors are only logged (by the caller) and the SDK is never
 * loaded; with one, `capture` sends a scrubbed event (`scrubErrorEvent`) to the configured project.
 */
export interface ErrorReporter {
  readonly enabled: boolean;
  capture(error: unknown, context?: ErrorContext): void;
  /** Waits for events on their way out (tests, shutdown). */
  flush(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface ErrorReportingOptions {
  dsn: string | null;
  sampleRate: number;
  environment: string;
  logger: Logger;
  /** Report uncaught exceptions and unhandled rejections (the real process; tests leave them to Vitest). */
  processHandlers?: boolean;
}

const disabled: ErrorReporter = {
  enabled: false,
  capture() {},
  async flush() {
    return true;
  },
  async close() {},
};

export async function createErrorReporter(options: ErrorReportingOptions): Promise<ErrorReporter> {
  if (!options.dsn) return disabled;
  // Loaded only when configured: the SDK and its instrumentation cost start-up time for nothing otherwise.
  const Sentry = await import("@sentry/node");
  const client = Sentry.initWithoutDefaultIntegrations({
    dsn: options.dsn,
    environment: options.environment,
    sampleRate: options.sampleRate,
    // No tracing (no OpenTelemetry set-up) and no automatic request data: the route is given explicitly.
    integrations: [
      Sentry.eventFiltersIntegration(),
      Sentry.functionToStringIntegration(),
      Sentry.linkedErrorsIntegration(),
      Sentry.dedupeIntegration(),
      Sentry.nodeContextIntegration(),
      Sentry.contextLinesIntegration(),
      ...(options.processHandlers
        ? [
            Sentry.onUncaughtExceptionIntegration(),
            // "strict" keeps Node's own behaviour: an unhandled rejection still ends the process.
            Sentry.onUnhandledRejectionIntegration({ mode: "strict" }),
          ]
        : []),
    ],
    beforeBreadcrumb: () => null,
    beforeSend: (event) => scrubErrorEvent(event),
  });
  if (!client) return disabled;
  options.logger.info("error reporting enabled");
  return {
    enabled: true,
    capture(error, context = {}) {
      Sentry.withScope((scope) => {
        if (context.route) scope.setTag("route", context.route);
        if (context.method) scope.setTag("method", context.method);
        if (context.job) scope.setTag("job", context.job);
        if (context.route || context.job)
          scope.setTransactionName(context.job ?? `${context.method ?? ""} ${context.route}`.trim());
        if (context.userId) scope.setUser({ id: context.userId });
        Sentry.captureException(error);
      });
    },
    flush: (timeoutMs = 2000) => Sentry.flush(timeoutMs),
    close: async () => {
      await Sentry.close(2000);
    },
  };
}
