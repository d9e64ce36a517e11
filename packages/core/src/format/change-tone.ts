/**
 * How a change against the comparison period reads: 'good' (green), 'bad' (red) or 'flat' (muted).
 * A rising average position, bounce rate or cost per click is bad news, so metrics declared
 * lower-is-better are coloured inversely; the arrow still shows the direction of the number.
 */
export type ChangeTone = "good" | "bad" | "flat";

export function changeTone(change: number | null | undefined, lowerIsBetter = false): ChangeTone {
  if (change === null || change === undefined || !Number.isFinite(change) || change === 0) return "flat";
  const up = change > 0;
  return up !== lowerIsBetter ? "good" : "bad";
}

// Names of measures where less is better, as providers and spreadsheets spell them: average position,
// bounce/exit/churn rates, costs per result, load times, unsubscribes and complaints.
const LOWER_IS_BETTER = [
  /\bav(?:g|erage)\.?\s*(?:search\s*)?pos(?:ition|\.)?\b/i,
  /^pos(?:ition)?\.?$/i,
  /\bbounce(?:s|\s*rate)?\b/i,
  /\bexit\s*rate\b/i,
  /\bchurn\b/i,
  /\bunsubscribe/i,
  /\bspam\s*(?:complaints?|rate)\b/i,
  /\bcost\s*(?:per|\/)\s*\w+/i,
  /^cp[acmlv]$/i,
  /\b(?:page\s*)?load\s*time\b/i,
];

/**
 * Whether a metric named `name` is better when it goes down. Connectors whose metric list comes
 * from the provider or from a file (no declared metadata) use it to declare their metrics.
 */
export function isLowerBetterName(name: string): boolean {
  const text = name.trim().replace(/_/g, " ");
  return LOWER_IS_BETTER.some((pattern) => pattern.test(text));
}
