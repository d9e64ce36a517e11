import { describe, expect, it } from "vitest";
import { loadConfig } from "../../infra/config";
import {
  daysOfSupportLeft,
  META_DEFAULT_VERSIONS,
  META_VERSION_MARGIN_DAYS,
  META_VERSIONS,
  type MetaApi,
  metaVersion,
} from "./versions";

const APIS: MetaApi[] = ["graph", "marketing"];
const today = () => new Date().toISOString().slice(0, 10);

describe("Meta API versions", () => {
  it.each([
    // api, version, today, days left
    ["marketing", "v25.0", "2026-11-29", 86],
    ["marketing", "v24.0", "2026-11-29", -19],
    ["marketing", "v27.0", "2026-11-29", 309],
    ["graph", "v25.0", "2026-11-29", 608],
    ["graph", "v26.0", "2026-11-29", 706],
  ] as const)("%s %s on %s has %i days of support left", (api, version, day, left) => {
    expect(daysOfSupportLeft(api, version, day)).toBe(left);
  });

  it("knows no end for a version missing from the table", () => {
    expect(daysOfSupportLeft("marketing", "v19.0", "2026-11-29")).toBeNull();
  });

  it("refuses, on 2026-11-29, the single v25.0 both APIs used to share: the Marketing API ends it in 86 days", () => {
    const left = daysOfSupportLeft("marketing", "v25.0", "2026-11-29");
    expect(left).not.toBeNull();
    expect(left as number).toBeLessThan(META_VERSION_MARGIN_DAYS);
  });

  it.each(APIS)("defaults the %s API to a version served at least 90 days past 2026-11-29", (api) => {
    const left = daysOfSupportLeft(api, META_DEFAULT_VERSIONS[api], "2026-11-29");
    expect(left, `${api} ${META_DEFAULT_VERSIONS[api]}`).not.toBeNull();
    expect(left as number).toBeGreaterThanOrEqual(META_VERSION_MARGIN_DAYS);
  });

  // The clock is the real one on purpose: this fails once time brings a default within 90 days of its
  // end, so the defaults (and the table, as Meta announces days) are raised before Meta stops answering.
  it.each(APIS)("defaults the %s API to a version served at least 90 days past today (the real date)", (api) => {
    const left = daysOfSupportLeft(api, META_DEFAULT_VERSIONS[api], today());
    expect(
      left,
      `${api} ${META_DEFAULT_VERSIONS[api]} is not in META_VERSIONS (connectors/meta/versions.ts)`,
    ).not.toBeNull();
    expect(
      left as number,
      `${api} ${META_DEFAULT_VERSIONS[api]} ends ${metaVersion(api, META_DEFAULT_VERSIONS[api])?.end}: raise the default (docs/connectors.md "Meta API versions")`,
    ).toBeGreaterThanOrEqual(META_VERSION_MARGIN_DAYS);
  });

  it.each(APIS)("lists the %s API's versions newest first, each ending after its release", (api) => {
    const rows = META_VERSIONS[api];
    for (const [index, row] of rows.entries()) {
      expect(row.end > row.released, row.version).toBe(true);
      const next = rows[index + 1];
      if (next) expect(row.released > next.released, `${row.version} after ${next.version}`).toBe(true);
    }
  });

  it("keeps the two versions apart in the server's settings, each with its own default", () => {
    const config = loadConfig({ NODE_ENV: "test" });
    expect(config.providers.meta.graphVersion).toBe(META_DEFAULT_VERSIONS.graph);
    expect(config.providers.meta.marketingVersion).toBe(META_DEFAULT_VERSIONS.marketing);
    const chosen = loadConfig({ NODE_ENV: "test", META_GRAPH_VERSION: "v26.0", META_MARKETING_VERSION: "v26.0" });
    expect(chosen.providers.meta).toMatchObject({ graphVersion: "v26.0", marketingVersion: "v26.0" });
  });
});
