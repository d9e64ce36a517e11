/** The part of a zod error the forms read (kept structural so the web app needs no direct zod import). */
export interface IssueList {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
}

/** First message per field of a failed schema parse, keyed by the top-level field name. */
export function zodFieldErrors(error: IssueList): Record<string, string> {
  const result: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "general");
    if (!(key in result)) result[key] = issue.message;
  }
  return result;
}
