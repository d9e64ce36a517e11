/**
 * Meta's two API versions and how long each is served (docs/connectors.md, "Meta API versions"). The
 * Graph API (Pages and Instagram insights, Facebook Login, `/me/accounts`) and the Marketing API (the
 * ad accounts, campaigns and insights Facebook Ads reads) share the `vNN.0` numbering and the release
 * days, but not their ends: a Graph API version lives two years after its successor's release, a
 * Marketing API version about one year after its own. So one setting cannot serve both; each has its
 * own default, and versions.test.ts fails once a default is within 90 days of its end (computed from
 * the real date too, so the failure comes when time passes, not when someone remembers).
 */

export type MetaApi = "graph" | "marketing";

export interface MetaVersion {
  version: string;
  /** Release day (yyyy-mm-dd). */
  released: string;
  /** Last day Meta serves it (yyyy-mm-dd). */
  end: string;
  /**
   * Where `end` comes from: `announced` (Meta's version table gives the day), `rule` (worked out from
   * Meta's published rule: a Graph version ends two years after the next one's release) or `estimate`
   * (Meta says "TBD"; the shortest life Meta has given such a version, so a test trips early, never late).
   */
  basis: "announced" | "rule" | "estimate";
}

/**
 * Versions still served or about to be, newest first (from Meta's version tables; see
 * docs/connectors.md for the pages). Add a row when Meta releases a version, replace an estimate when
 * Meta announces the day.
 */
export const META_VERSIONS: Record<MetaApi, readonly MetaVersion[]> = {
  graph: [
    // TBD at Meta: at least two years from release (each Graph version is served two years after its successor ships).
    { version: "v27.0", released: "2026-11-04", end: "2028-11-04", basis: "estimate" },
    // Two years after v27.0's release (2026-11-04).
    { version: "v26.0", released: "2026-07-29", end: "2028-11-04", basis: "rule" },
    { version: "v25.0", released: "2026-02-18", end: "2028-07-29", basis: "announced" },
    { version: "v24.0", released: "2025-10-08", end: "2028-02-18", basis: "announced" },
    { version: "v23.0", released: "2025-05-29", end: "2027-10-08", basis: "announced" },
  ],
  marketing: [
    // TBD at Meta: eleven months from release, the shortest life of a Marketing API version since v16.0 (v21.0's).
    { version: "v27.0", released: "2026-11-04", end: "2027-10-04", basis: "estimate" },
    { version: "v26.0", released: "2026-07-29", end: "2027-06-29", basis: "estimate" },
    { version: "v25.0", released: "2026-02-18", end: "2027-02-23", basis: "announced" },
    { version: "v24.0", released: "2025-10-08", end: "2026-11-10", basis: "announced" },
  ],
};

/** The version each API is called with unless META_GRAPH_VERSION / META_MARKETING_VERSION say otherwise. */
export const META_DEFAULT_VERSIONS: Record<MetaApi, string> = {
  graph: "v25.0",
  marketing: "v27.0",
};

/** A default must be this many days from its end; closer, versions.test.ts fails. */
export const META_VERSION_MARGIN_DAYS = 90;

/** The row of a version, or null when the table does not know it. */
export function metaVersion(api: MetaApi, version: string): MetaVersion | null {
  return META_VERSIONS[api].find((row) => row.version === version) ?? null;
}

/** Whole days from `today` (yyyy-mm-dd) to the version's last day; negative once it has ended; null when unknown. */
export function daysOfSupportLeft(api: MetaApi, version: string, today: string): number | null {
  const row = metaVersion(api, version);
  if (!row) return null;
  return Math.round((Date.parse(`${row.end}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}
