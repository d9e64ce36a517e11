import * as Sentry from "@sentry/react";
import { prepareBrowserEvent } from "./error-event";
import type { ErrorReportingSettings, ReportContext } from "./error-reporting";

/** Starts Sentry in the browser (uncaught errors and rejections included) and returns the reporting function. */
export function initErrorReporting(settings: NonNullable<ErrorReportingSettings>) {
  Sentry.init({
    dsn: settings.dsn,
    environment: settings.environment,
    sampleRate: settings.sampleRate,
    // Breadcrumbs echo console lines and request URLs; none leave the browser.
    beforeBreadcrumb: () => null,
    beforeSend: (event) => prepareBrowserEvent(event, window.location.pathname),
  });
  return (error: unknown, context: ReportContext) => {
    Sentry.withScope((scope) => {
      scope.setTags(context);
      Sentry.captureException(error);
    });
  };
}
