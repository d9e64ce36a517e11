import { z } from "zod";

/** 422 body: Laravel-style per-field messages, as the spec's forms read them (§5, §8), with its code. */
export const ZValidationErrorBody = z.object({
  code: z.literal("validation"),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())),
});
export type TValidationErrorBody = z.infer<typeof ZValidationErrorBody>;

/** Any other error body: a stable code (the server's error table, infra/errors.ts) and a human message. */
export const ZErrorBody = z.object({
  code: z.string(),
  message: z.string(),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;

/** Pagination meta of list endpoints. */
export const ZPageMeta = z.object({
  currentPage: z.number().int(),
  perPage: z.number().int(),
  total: z.number().int(),
  lastPage: z.number().int(),
});
export type TPageMeta = z.infer<typeof ZPageMeta>;

/** Wraps a schema as `{ data: … }`, the envelope every JSON response uses. */
export function dataEnvelope<T extends z.ZodTypeAny>(schema: T) {
  return z.object({ data: schema });
}

/** Form data sends booleans as "1"/"0"/"true"/"on"; JSON sends real booleans. */
export const zFormBoolean = z.preprocess((value) => {
  if (typeof value === "string") return ["1", "true", "on", "yes"].includes(value.toLowerCase());
  if (typeof value === "number") return value === 1;
  return value;
}, z.boolean());

// In a module without zod, so the web app's first load can read them without loading zod.
export { HEADERS, RELOAD_STATUSES } from "./http";
