import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import type { TOption } from "@app/core";
import { addDays } from "date-fns/addDays";
import { formatISO } from "date-fns/formatISO";
import type { ProvidersConfig } from "../../infra/config";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import { CONNECTORS } from "../index";
import type { Connector, SourceHandle } from "../types";
import { type CheckLine, type CheckOptions, checkSource, formatLines, type Recording } from "./run";

export const USAGE = `The live check (docs/connectors.md, "Checking connectors against the providers"):
  npm run connectors:check -- <connector>|--all            credentials from CONNECTORS_CHECK_<CONNECTOR>
  npm run connectors:check -- --source=<id> [--source=…]   a connected source's credentials, from the database
Options: --record <dir> (scrubbed recordings), --type <widget type> (only it), --input <type>.<key>=<value>,
         --from YYYY-MM-DD --to YYYY-MM-DD (default: the 7 days before yesterday), --timezone <IANA zone>.
CONNECTORS_CHECK_<CONNECTOR> holds JSON: {"credentials": {"token": "…"}, "account": "…", "properties": [{"value": "…", "label": "…"}]}
(the connector key in capitals, e.g. CONNECTORS_CHECK_SEMRUSH).`;

export interface CliOutput {
  out(line: string): void;
  error(line: string): void;
}

/** What the check needs of the server: its provider settings and counters, and the sources of its database. */
export interface CheckDeps {
  providers: ProvidersConfig;
  counters: RateLimitStore;
  outboundAllowHosts: readonly string[];
  /** A source by id as the sources service opens it; null when there is none. */
  loadSource(id: string): Promise<{ connector: Connector; handle: SourceHandle } | null>;
  env: Readonly<Record<string, string | undefined>>;
  /** "Today" for the default range. */
  now?: () => Date;
}

const day = (date: Date) => formatISO(date, { representation: "date" });

/** The operator's `--input type.key=value` options, by widget type. */
function parseInputs(given: readonly string[]): Record<string, Record<string, unknown>> | string {
  const inputs: Record<string, Record<string, unknown>> = {};
  for (const item of given) {
    const match = /^([^=]+)\.([^.=]+)=(.*)$/.exec(item);
    if (!match) return `--input ${item}: write it as <widget type>.<parameter>=<value>`;
    const [, type = "", key = "", value = ""] = match;
    inputs[type] = { ...inputs[type], [key]: value.includes(",") ? value.split(",") : value };
  }
  return inputs;
}

/** A source made of CONNECTORS_CHECK_<KEY>'s credentials, living in memory only (a refreshed token stays here). */
function sourceFromEnv(connector: Connector, deps: CheckDeps): SourceHandle | string | null {
  const name = `CONNECTORS_CHECK_${connector.key.toUpperCase()}`;
  const raw = deps.env[name];
  if (!raw) return null;
  let parsed: { credentials?: Record<string, string>; account?: string; properties?: TOption[] };
  try {
    parsed = JSON.parse(raw);
  } catch {
    return `${name} is not JSON`;
  }
  const handle: SourceHandle = {
    id: `check-${connector.key}`,
    companyId: "check",
    connector: connector.key,
    account: parsed.account ?? null,
    credentials: parsed.credentials ?? {},
    properties: parsed.properties ?? [],
    readFile: async () => null,
    saveCredentials: async (next) => {
      handle.credentials = next;
    },
    runtime: { providers: deps.providers, counters: deps.counters, outboundAllowHosts: deps.outboundAllowHosts },
  };
  return handle;
}

/** Runs the check; returns the exit code (0 every line ok or skipped, 1 something wrong, 2 wrong usage). */
export async function runConnectorsCheck(args: string[], deps: CheckDeps, io: CliOutput): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  function parse() {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        all: { type: "boolean" },
        source: { type: "string", multiple: true },
        record: { type: "string" },
        type: { type: "string", multiple: true },
        input: { type: "string", multiple: true },
        from: { type: "string" },
        to: { type: "string" },
        timezone: { type: "string" },
      },
    });
  }
  try {
    parsed = parse();
  } catch (error) {
    io.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const inputs = parseInputs(values.input ?? []);
  if (typeof inputs === "string") {
    io.error(inputs);
    return 2;
  }
  const today = (deps.now ?? (() => new Date()))();
  const range = {
    startDate: values.from ?? day(addDays(today, -8)),
    endDate: values.to ?? day(addDays(today, -2)),
  };
  const recordDir = values.record;
  const options: CheckOptions = {
    range,
    timezone: values.timezone ?? "UTC",
    inputs,
    types: values.type,
    record: recordDir
      ? async (recording: Recording) => {
          const file = path.join(recordDir, recording.connector, `${recording.type}.json`);
          await fs.mkdir(path.dirname(file), { recursive: true });
          await fs.writeFile(file, `${JSON.stringify(recording, null, 2)}\n`);
        }
      : undefined,
  };

  const lines: CheckLine[] = [];
  if (values.source?.length) {
    for (const id of values.source) {
      const loaded = await deps.loadSource(id);
      if (!loaded) {
        io.error(`No source ${id} in this database.`);
        return 2;
      }
      lines.push(...(await checkSource(loaded.connector, loaded.handle, options)));
    }
  } else {
    const wanted = values.all ? null : positionals;
    if (!values.all && positionals.length === 0) {
      io.error(USAGE);
      return 2;
    }
    const unknown = (wanted ?? []).filter((key) => !CONNECTORS.some((connector) => connector.key === key));
    if (unknown.length > 0) {
      io.error(`Unknown connector: ${unknown.join(", ")}. Known: ${CONNECTORS.map((c) => c.key).join(", ")}.`);
      return 2;
    }
    for (const connector of CONNECTORS) {
      if (wanted && !wanted.includes(connector.key)) continue;
      // The product's own connectors (demo data, uploaded files) have no provider to check.
      if (connector.authKind === "none" || connector.authKind === "upload") continue;
      const source = sourceFromEnv(connector, deps);
      if (source === null || typeof source === "string") {
        const why = source ?? `no credentials (CONNECTORS_CHECK_${connector.key.toUpperCase()}, or --source <id>)`;
        for (const config of connector.widgetTypes) {
          lines.push({ connector: connector.key, type: config.type, outcome: "skipped", detail: why });
        }
        continue;
      }
      lines.push(...(await checkSource(connector, source, options)));
    }
  }
  io.out(formatLines(lines));
  return lines.some((entry) => entry.outcome !== "ok" && entry.outcome !== "skipped") ? 1 : 0;
}
