/**
 * The one error table of the server: every error a client can receive has a stable code, the HTTP
 * status it is answered with and, where the code alone says it, the message. Features throw AppError
 * (or a subclass) with one of these codes; the error handler answers `{code, message}`, plus `errors`
 * (per field) for a 422, plus a subclass's own fields (`body`).
 */
export const ERRORS = {
  bad_request: { status: 400, message: "Bad request." },
  unauthenticated: { status: 401, message: "Unauthenticated." },
  payment_required: { status: 402, message: "Payment required." },
  forbidden: { status: 403, message: "This action is unauthorized." },
  /** The company requires two-factor sign-in and the user has not set it up (features/two-factor). */
  two_factor_required: {
    status: 403,
    message:
      "Your company requires two-factor sign-in. Set it up on the two-factor set-up page before doing anything else.",
  },
  not_found: { status: 404, message: "Not found." },
  conflict: { status: 409, message: "Conflict." },
  /** A body over the server's limit (2 MB; uploads have their own limit, answered as a 422 on the file). */
  payload_too_large: { status: 413, message: "The request is too large." },
  session_mismatch: { status: 419, message: "Page expired. Please reload the page." },
  validation: { status: 422, message: "The given data was invalid." },
  too_many_requests: { status: 429, message: "Too many attempts. Please try again later." },
  internal: { status: 500, message: "Server Error" },
  /** A data source failed (connector error, lost credentials, missing file): the widget shows 'Data Error'. */
  source_error: { status: 502, message: "Data Error" },
  /** Something the server makes in the background failed for now (a PDF export): try again later. */
  unavailable: { status: 503, message: "Service unavailable. Please try again later." },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** Status of each code (kept for callers that only need the status). */
export const ERROR_STATUS = Object.fromEntries(Object.entries(ERRORS).map(([code, entry]) => [code, entry.status])) as {
  [C in ErrorCode]: (typeof ERRORS)[C]["status"];
};

/** What an error answer carries: always a code and a message; per-field errors for a 422. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  errors?: Record<string, string[]>;
  [extra: string]: unknown;
}

/** The one error class of the server: a stable code, a safe message, optional per-field errors. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: Record<string, string[]>;

  constructor(code: ErrorCode, message: string = ERRORS[code].message, fields?: Record<string, string[]>) {
    super(message);
    this.code = code;
    this.fields = fields;
  }

  get status(): number {
    return ERRORS[this.code].status;
  }

  /** Fields a subclass adds to the answer (e.g. the white-label title of a password prompt). */
  protected extra(): Record<string, unknown> {
    return {};
  }

  /** The answer's body. */
  body(): ErrorBody {
    const base: ErrorBody = { code: this.code, message: this.message };
    if (this.code === "validation") base.errors = this.fields ?? {};
    return { ...base, ...this.extra() };
  }

  /** A 422 with messages per field (docs/product.md §5: the forms show them under each input). */
  static validation(fields: Record<string, string[]>, message: string = ERRORS.validation.message): AppError {
    return new AppError("validation", message, fields);
  }

  static notFound(message: string = ERRORS.not_found.message): AppError {
    return new AppError("not_found", message);
  }

  static forbidden(message: string = ERRORS.forbidden.message): AppError {
    return new AppError("forbidden", message);
  }
}

/** True for a unique-index violation on SQLite or PostgreSQL (a race two checks could not prevent). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "23505";
}

/**
 * The AppError an error stands for: itself, or one of the table's codes for errors raised by Fastify
 * and its plugins (an upload over the size limit is a 422 on the file; any other body over the limit a 413; a rate
 * limit is a 429). Null
 * for anything else (a 4xx keeps its status as bad_request; the rest is a 500).
 */
export function asAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  const { code, statusCode } = (error ?? {}) as { code?: string; statusCode?: number };
  if (code === "FST_REQ_FILE_TOO_LARGE") {
    return AppError.validation({ file: ["The file may not be greater than 5 MB."] });
  }
  if (code === "FST_ERR_CTP_BODY_TOO_LARGE") return new AppError("payload_too_large");
  if (statusCode === 429) return new AppError("too_many_requests");
  return null;
}
