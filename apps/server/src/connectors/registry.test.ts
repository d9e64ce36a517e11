import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, ZEnv } from "../infra/config";
import { REPOSITORY_ROOT } from "../infra/env-file";
import { CONNECTORS, missingConfig, PROVIDER_SETTINGS } from ".";

const here = path.dirname(new URL(import.meta.url).pathname);

/** The connector table of docs/connectors.md: catalogue order → the server variables it names. */
function documentedVariables(): Map<number, string[]> {
  const doc = fs.readFileSync(path.join(REPOSITORY_ROOT, "docs/connectors.md"), "utf8");
  const rows = new Map<number, string[]>();
  for (const match of doc.matchAll(/^\| (\d+) \| [^\n]*? \| ([^|\n]+) \|$/gm)) {
    const cell = match[2].trim();
    rows.set(Number(match[1]), cell === "—" ? [] : cell.split(/,\s*/));
  }
  return rows;
}

describe("the connector registry", () => {
  it("each connector lives in the folder named by its key", () => {
    for (const connector of CONNECTORS) {
      expect(fs.existsSync(path.join(here, connector.key, "index.ts")), connector.key).toBe(true);
    }
  });

  it("the server's settings include every provider's variables, each declared by one provider", () => {
    const names = PROVIDER_SETTINGS.flatMap((settings) => Object.keys(settings.env));
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(Object.keys(ZEnv.shape), name).toContain(name);
    expect(new Set(PROVIDER_SETTINGS.map((settings) => settings.name)).size).toBe(PROVIDER_SETTINGS.length);
  });

  it("docs/connectors.md names, for each connector, the variables the catalogue asks for when none is set", () => {
    const providers = loadConfig({}).providers;
    const documented = documentedVariables();
    expect([...documented.keys()].sort((a, b) => a - b)).toEqual(CONNECTORS.map((connector) => connector.order));
    for (const connector of CONNECTORS) {
      expect(documented.get(connector.order), connector.key).toEqual(missingConfig(connector, providers));
    }
  });
});
