/** Stable error codes and the HTTP status each one maps to. */
export const ERROR_STATUS = {
  bad_request: 400,
  validation: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  session_mismatch: 419,
  too_many_requests: 429,
  payment_required: 402,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The one error class of the server: a stable code, a safe message, optional per-field errors. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: Record<string, string[]>;

  constructor(code: ErrorCode, message: string, fields?: Record<string, string[]>) {
    super(message);
    this.code = code;
    this.fields = fields;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  /** A 422 with messages per field (docs/product.md §5: the forms show them under each input). */
  static validation(fields: Record<string, string[]>, message = "The given data was invalid."): AppError {
    return new AppError("validation", message, fields);
  }

  static notFound(message = "Not found."): AppError {
    return new AppError("not_found", message);
  }

  static forbidden(message = "This action is unauthorized."): AppError {
    return new AppError("forbidden", message);
  }
}

/** True for a unique-index violation on SQLite or PostgreSQL (a race two checks could not prevent). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "23505";
}
