export interface NumberInputLimits {
  min?: number;
  max?: number;
  step?: number;
}

/**
 * docs/product.md §5 number input: whole integers; rounds up to a multiple of step; a value
 * below step becomes step; clamped to max (and never below min).
 * Returns null for input that is not a number at all, so the field can stay empty.
 */
export function normaliseNumberInput(raw: unknown, limits: NumberInputLimits = {}): number | null {
  const parsed =
    typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : Number.NaN;
  if (!Number.isFinite(parsed)) return null;
  const step = limits.step && limits.step > 0 ? Math.ceil(limits.step) : 1;
  let value = Math.ceil(parsed);
  if (value < step) value = step;
  value = Math.ceil(value / step) * step;
  if (limits.max !== undefined && value > limits.max) value = Math.floor(limits.max);
  if (limits.min !== undefined && value < limits.min) value = Math.ceil(limits.min);
  return value;
}
