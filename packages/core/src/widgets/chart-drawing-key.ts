/**
 * The text a chart's drawing is kept under, for its input and size: JSON with each object's keys sorted
 * (the same answer can come with its keys in another order from one load to the next, and after a trip
 * through JSON), and the numbers JSON cannot say (NaN, ±Infinity) kept apart from null. The browser keeps
 * its drawings by a hash of it (web features/widgets/charts/snapshot-store.ts), and so does the server
 * (server features/page-data/chart-snapshots.ts).
 */
export function chartDrawingKeyText(input: unknown, size: { width: number; height: number }): string {
  return JSON.stringify([input, size.width, size.height], (_key, value: unknown) => {
    if (typeof value === "number" && !Number.isFinite(value)) return `number:${value}`;
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    const record = value as Record<string, unknown>;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(record).sort()) sorted[key] = record[key];
    return sorted;
  });
}
