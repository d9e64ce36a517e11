/** A parsed 'unless' rule (docs/product.md §5). */
export interface UnlessRule {
  param: string;
  /** True for 'param!:a|b' (holds when the value is none of them). */
  negated: boolean;
  values: string[];
}

/**
 * Parses 'param::a|b' or 'param!:a|b'. The first separator wins, so values may themselves hold
 * colons ('mode::exact:url'). Returns null for text that is not a rule.
 */
export function parseUnless(rule: string): UnlessRule | null {
  const match = /^([^:!]+)(::|!:)(.*)$/.exec(rule.trim());
  if (!match) return null;
  const param = match[1].trim();
  if (param === "") return null;
  return { param, negated: match[2] === "!:", values: match[3].split("|").map((value) => value.trim()) };
}

// Form values compare as text, so a number 7 or a boolean true matches '7' or 'true' in a rule.
function valueMatches(value: unknown, values: readonly string[]): boolean {
  if (Array.isArray(value)) return value.some((item) => valueMatches(item, values));
  if (value === null || value === undefined || typeof value === "object") return false;
  return values.includes(String(value));
}

/**
 * docs/product.md §5: 'param::a|b' holds when the form's param equals one of the values; 'param!:a|b' holds when
 * it equals none (an unset param equals none). A multiselect holds '::' when any chosen item matches.
 * A malformed rule never holds, so the parameter it guards stays required rather than silently optional.
 */
export function unlessHolds(rule: string, form: Readonly<Record<string, unknown>>): boolean {
  const parsed = parseUnless(rule);
  if (!parsed) return false;
  const matches = valueMatches(form[parsed.param], parsed.values);
  return parsed.negated ? !matches : matches;
}
