/**
 * docs/product.md §5: a field is filled if it is a non-empty string or a number, or an array
 * with at least one truthy item. Booleans are not "filled" by this rule (forms that
 * need an explicit true/false check for `typeof value === "boolean"` instead).
 */
export function isFilled(value: unknown): boolean {
  if (typeof value === "string") return value.length > 0;
  if (typeof value === "number") return !Number.isNaN(value);
  if (Array.isArray(value)) return value.some(Boolean);
  return false;
}
