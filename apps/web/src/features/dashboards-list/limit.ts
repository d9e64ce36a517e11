import { MESSAGE_CATALOGUE } from "@app/core";
import { ApiError, errorMessage, fieldErrors } from "../../lib/api";

/** Title of banner 121, which the server also uses as the message of its allowance refusal (422). */
export const DASHBOARD_LIMIT_TITLE = MESSAGE_CATALOGUE[121].title ?? "All Dashboards Used Up";

/** True for the server's refusal to create, clone or restore beyond the company's dashboard allowance. */
export function isDashboardLimitError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 422 && error.message === DASHBOARD_LIMIT_TITLE;
}

/** The sentence to show for a failed dashboard action: the 422's general message when there is one. */
export function dashboardErrorMessage(error: unknown): string {
  return fieldErrors(error)?.general ?? errorMessage(error);
}
