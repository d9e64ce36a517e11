import type { DayRange, TTable } from "@app/core";
import type { Component, DemoDimension, DemoType } from "./model";

/**
 * Deterministic demo data. Every day's numbers are a pure function of (source id, property, type,
 * day), computed from integer hashing rather than a running random stream, so any range gives the
 * same daily rows as a larger range containing it and the same query always gives the same table.
 */

const DAY_MS = 86_400_000;
/** Day zero of the trend line; dates before it simply sit lower on the same curve. */
const EPOCH = dayNumber("2024-01-01");

/** Whole days since 1970-01-01 for a `yyyy-MM-dd` day (UTC arithmetic: no time zone can shift it). */
export function dayNumber(day: string): number {
  const [year, month, date] = day.split("-").map(Number);
  return Math.round(Date.UTC(year, month - 1, date) / DAY_MS);
}

/** The `yyyy-MM-dd` day of a day number. */
export function dayString(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

export function hashString(text: string): number {
  // FNV-1a: tiny, fast and stable across platforms and releases, unlike Math.random seeding tricks.
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function mix(value: number): number {
  // murmur3's finaliser: spreads every input bit over the whole word.
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A uniform draw in [0, 1) addressed by a seed and integer coordinates. */
export function unit(seed: number, ...coordinates: number[]): number {
  let hash = seed;
  for (const coordinate of coordinates) hash = mix(hash ^ Math.imul((coordinate | 0) + 0x9e3779b9, 0x27d4eb2d));
  return hash / 2 ** 32;
}

// Counts are kept as whole units and money or seconds as whole cents, so splitting a day over
// dimension values adds back up exactly.
const unitsPer = (component: Component) => (component.integer ? 1 : 100);

interface Site {
  seed: number;
  size: number;
  growth: number;
  phase: number;
}

export function siteOf(sourceId: string, property: string): Site {
  const seed = hashString(`${sourceId}|${property}`);
  return {
    seed,
    size: 700 + 2800 * unit(seed, 1),
    growth: 0.05 + 0.25 * unit(seed, 2),
    phase: unit(seed, 3) * 2 * Math.PI,
  };
}

/** One day's components in whole units, for a site and type. */
function dayUnits(site: Site, type: DemoType, typeSeed: number, n: number): number[] {
  const t = n - EPOCH;
  const dow = (((n + 4) % 7) + 7) % 7;
  // Compound growth stays positive however far back or ahead the range lies.
  const scale = site.size * (1 + site.growth) ** (t / 365);
  const season = 1 + 0.08 * Math.sin((2 * Math.PI * t) / 365.25 + site.phase);
  const volume = scale * type.weekly[dow] * season * (0.88 + 0.24 * unit(typeSeed, n, 0));
  const raw = type.day({ scale, volume, dow, rand: (index) => unit(typeSeed, n, index + 1) });
  return type.components.map((component) => Math.max(0, Math.round((raw[component.key] ?? 0) * unitsPer(component))));
}

/** Splits a whole number into parts proportional to `shares` (largest remainder), so the parts sum to it. */
export function apportion(total: number, shares: readonly number[]): number[] {
  const sumOfShares = shares.reduce((a, b) => a + b, 0);
  if (sumOfShares <= 0) return shares.map(() => 0);
  const exact = shares.map((share) => (total * share) / sumOfShares);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact
    .map((value, index) => ({ index, rest: value - Math.floor(value) }))
    .sort((a, b) => b.rest - a.rest || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    parts[index] += 1;
    left -= 1;
  }
  return parts;
}

/**
 * Each dimension value's share of each component on a day, with a little daily wobble: `(n, units)` for
 * day n. What does not change from day to day (each value's weight on this site) is worked out once.
 */
function daySplitter(site: Site, type: DemoType, typeSeed: number, dimension: DemoDimension) {
  const values = dimension.values ?? [];
  const dimensionSeed = hashString(dimension.key);
  const siteWeights = values.map((value, v) => value.weight * (0.7 + 0.6 * unit(site.seed, dimensionSeed, v)));
  return (n: number, units: number[]): number[][] => {
    const weights = siteWeights.map((weight, v) => weight * (0.85 + 0.3 * unit(typeSeed, n, 1000 + v)));
    const byComponent = type.components.map((component, c) =>
      apportion(
        units[c],
        values.map((value, v) => weights[v] * (value.bias?.[component.key] ?? 1)),
      ),
    );
    return values.map((_, v) => byComponent.map((parts) => parts[v]));
  };
}

/** Adds `day` into `into`: flows sum, stocks keep the latest day's value. */
function accumulate(type: DemoType, into: number[], day: readonly number[]): void {
  type.components.forEach((component, c) => {
    into[c] = component.stock ? day[c] : into[c] + day[c];
  });
}

function metricRow(type: DemoType, metricKeys: readonly string[], units: readonly number[]): (number | null)[] {
  const components: Record<string, number> = {};
  type.components.forEach((component, c) => {
    components[component.key] = units[c] / unitsPer(component);
  });
  return metricKeys.map((key) => {
    const metric = type.metrics.find((candidate) => candidate.key === key);
    const value = metric ? metric.value(components) : Number.NaN;
    return Number.isFinite(value) ? Math.round(value * 10_000) / 10_000 : null;
  });
}

/**
 * Scripted events of a demo site: from `from` to `to` (inclusive) one value of a dimension keeps only
 * `factor` of its share, and the day's totals lose what it lost (a paused ad account, a broken feed).
 * Fixed dates, so the same query still gives the same table; it gives automatic insights a real story.
 */
export interface DemoIncident {
  property: string;
  dimension: string;
  value: string;
  from: string;
  to: string;
  factor: number;
}

export const DEMO_INCIDENTS: readonly DemoIncident[] = [
  {
    property: "harbor-outfitters",
    dimension: "channel",
    value: "Organic Search",
    from: "2026-10-19",
    to: "2026-10-31",
    // A tenth of its usual visits: deep enough that every source's site (each id seeds its own noise)
    // tells the story. At 0.35, 8 sites in 1,000 stayed inside their weekday bands and insights said
    // nothing (demo.test.ts scans the seeds).
    factor: 0.1,
  },
];

/**
 * The incidents of a query's site and type that overlap its days, as `(n, units)`: the day's parts per
 * value of the incident's dimension, after the incident, or null on an ordinary day.
 */
function incidentsOf(query: DemoQuery, site: Site, typeSeed: number, first: number, last: number) {
  const incidents = DEMO_INCIDENTS.flatMap((incident) => {
    const from = dayNumber(incident.from);
    const to = dayNumber(incident.to);
    if (incident.property !== query.property || to < first || from > last) return [];
    const dimension = query.type.dimensions.find((candidate) => candidate.key === incident.dimension);
    const hit = dimension?.values?.findIndex((value) => value.name === incident.value) ?? -1;
    if (!dimension || hit < 0) return [];
    return [
      { from, to, hit, dimension, factor: incident.factor, split: daySplitter(site, query.type, typeSeed, dimension) },
    ];
  });
  return (n: number, units: number[]): { dimension: DemoDimension; parts: number[][] } | null => {
    for (const incident of incidents) {
      if (n < incident.from || n > incident.to) continue;
      const parts = incident.split(n, units);
      parts[incident.hit] = parts[incident.hit].map((part) => Math.round(part * incident.factor));
      return { dimension: incident.dimension, parts };
    }
    return null;
  };
}

export interface DemoQuery {
  sourceId: string;
  property: string;
  type: DemoType;
  dimension: string | null;
  metrics: readonly string[];
  range: DayRange;
}

/** The Demo connector's table for one range: rows per day or per dimension value, totals over the range. */
export function demoTable(query: DemoQuery): TTable {
  const { type } = query;
  const site = siteOf(query.sourceId, query.property);
  const typeSeed = mix(site.seed ^ hashString(type.key));
  const dimension = query.dimension ? type.dimensions.find((d) => d.key === query.dimension) : undefined;
  const first = dayNumber(query.range.startDate);
  const last = dayNumber(query.range.endDate);
  const totals = type.components.map(() => 0);
  const perValue = (dimension?.values ?? []).map(() => type.components.map(() => 0));
  const rows: TTable["rows"] = [];
  const incidentParts = incidentsOf(query, site, typeSeed, first, last);
  const splitDay = dimension && dimension.key !== "date" ? daySplitter(site, type, typeSeed, dimension) : null;

  for (let n = first; n <= last; n += 1) {
    let units = dayUnits(site, type, typeSeed, n);
    const incident = incidentParts(n, units);
    // The day's totals are what its parts add up to once the incident took its share.
    if (incident) units = type.components.map((_, c) => incident.parts.reduce((sum, part) => sum + part[c], 0));
    accumulate(type, totals, units);
    if (dimension?.key === "date") {
      rows.push({ dimension: dayString(n), values: metricRow(type, query.metrics, units) });
    } else if (dimension && splitDay) {
      const parts = incident?.dimension.key === dimension.key ? incident.parts : splitDay(n, units);
      parts.forEach((part, v) => {
        accumulate(type, perValue[v], part);
      });
    }
  }
  for (const [v, value] of (dimension?.values ?? []).entries()) {
    rows.push({ dimension: value.name, values: metricRow(type, query.metrics, perValue[v]) });
  }
  return {
    dimension: dimension
      ? { key: dimension.key, label: dimension.label, kind: dimension.key === "date" ? "date" : "string" }
      : null,
    metrics: query.metrics.map((key) => {
      const metric = type.metrics.find((candidate) => candidate.key === key);
      const declared = metric?.lowerIsBetter ? { lowerIsBetter: true } : {};
      return { key, label: metric?.label ?? key, format: metric?.format ?? "number", currency: null, ...declared };
    }),
    rows,
    totals: metricRow(type, query.metrics, totals),
  };
}
