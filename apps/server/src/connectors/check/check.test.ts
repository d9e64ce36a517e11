import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { allFakes } from "../../../test/fakes/all";
import { fakesForFile } from "../../../test/fakes/app";
import { connectToFake, fakeLoginOf } from "../../../test/fakes/connect";
import { describeEachDb, type TestEnv } from "../../../test/harness";
import { loadConfig } from "../../infra/config";
import { CONNECTORS } from "../index";
import type { Connector, SourceHandle } from "../types";
import { type CheckDeps, runConnectorsCheck } from "./cli";
import { startReplay } from "./replay";
import type { Recording } from "./run";

const fakes = fakesForFile(afterAll, () => allFakes());
const checked = CONNECTORS.filter((connector) => connector.authKind !== "none" && connector.authKind !== "upload");
/** Connectors whose login is a typed key (no address): the environment's credentials are enough for them. */
const typed = checked.filter((connector) => connector.authKind === "token" || connector.authKind === "account+token");

function deps(env: TestEnv, companyId: string, extra: Record<string, string> = {}): CheckDeps {
  return {
    providers: env.ctx.config.providers,
    counters: env.ctx.rateLimits,
    outboundAllowHosts: env.ctx.config.outboundAllowHosts,
    env: extra,
    now: () => new Date("2026-11-20T12:00:00Z"),
    loadSource: (id) => env.services.get("sources").load(companyId, id),
  };
}

const capture = () => {
  const out: string[] = [];
  const errors: string[] = [];
  return { out, errors, io: { out: (line: string) => out.push(line), error: (line: string) => errors.push(line) } };
};

describeEachDb(
  "The live check, against every provider's fake",
  (env) => {
    const recordDir = fs.mkdtempSync(path.join(os.tmpdir(), "connectors-check-"));
    afterAll(() => (process.env.KEEP_RECORDINGS ? undefined : fs.rmSync(recordDir, { recursive: true, force: true })));

    it("one small query per widget type of every provider connector: a line each, all ok, and N/M ok last", async () => {
      const { client, company } = await buildOwner(env());
      const running = await fakes.current();
      const ids: string[] = [];
      for (const connector of checked) ids.push(await connectToFake(client, connector, running.url));
      const { out, errors, io } = capture();
      const code = await runConnectorsCheck(
        ["--record", recordDir, ...ids.map((id) => `--source=${id}`)],
        deps(env(), company.id),
        io,
      );
      const table = out.join("\n").split("\n");
      // The table, for whoever reads the test's output (and the release notes).
      console.log(table.join("\n"));
      expect(errors).toEqual([]);
      const types = checked.flatMap((connector) => connector.widgetTypes.map((config) => config.type));
      expect(table.length).toBe(types.length + 1);
      for (const [index, type] of types.entries()) {
        expect(table[index], type).toMatch(new RegExp(`^\\S+ ${type.replace(/\./g, "\\.")} (ok|skipped) `));
      }
      const skipped = table.filter((entry) => / skipped /.test(entry));
      // Only a type whose form needs a value nobody can guess (a keyword, an address) is skipped, saying which.
      for (const entry of skipped) expect(entry).toMatch(/needs a value for \w+ \(--input /);
      expect(table.at(-1)).toBe(`${types.length - skipped.length}/${types.length} ok`);
      expect(code).toBe(0);
    });

    it("a recording replays like a fake: the same table again, and no token, e-mail, account id or name in it", async () => {
      const files = fs
        .readdirSync(recordDir, { recursive: true })
        .map(String)
        .filter((file) => file.endsWith(".json"));
      expect(files.length).toBeGreaterThan(10);
      const recordings = files.map(
        (file) => JSON.parse(fs.readFileSync(path.join(recordDir, file), "utf8")) as Recording,
      );
      const text = files.map((file) => fs.readFileSync(path.join(recordDir, file), "utf8")).join("\n");
      // What the fakes hand out as secrets and identities: none of it survives the scrubber.
      const running = await fakes.current();
      const secrets = running.calls
        .flatMap((call) => [
          String(call.headers.authorization ?? ""),
          ...["key", "token", "access_token", "consumer_key", "consumer_secret", "appsecret_proof"].map(
            (name) => call.query[name] ?? "",
          ),
        ])
        .map((value) => value.replace(/^(Bearer|Basic|Token)\s+/i, ""))
        .filter((value) => value.length >= 8);
      expect(secrets.length).toBeGreaterThan(0);
      for (const secret of new Set(secrets)) expect(text, "a credential was recorded").not.toContain(secret);
      expect(text).not.toMatch(/[A-Za-z0-9._%+-]+@(?!example\.com)[A-Za-z0-9.-]+\.[A-Za-z]{2,}/);
      expect(text).not.toContain("Acme Agency");

      // Replayed: a server pointed at the recordings instead of the fakes gives each query's table again.
      const replay = await startReplay(recordings);
      try {
        const fakesOrigin = running.url;
        const providers = loadConfig({
          NODE_ENV: "test",
          DATA_DIR: env().dataDir,
          ...Object.fromEntries(
            Object.entries(running.env).map(([name, value]) => [name, value.split(fakesOrigin).join(replay.origin)]),
          ),
        }).providers;
        let replayed = 0;
        for (const recording of recordings) {
          const connector = CONNECTORS.find((entry) => entry.key === recording.connector);
          if (!connector || recording.exchanges.length === 0) continue;
          // A typed shop address is part of the recording's source: it points at the replay too.
          const credentials = Object.fromEntries(
            Object.entries(recording.source.credentials).map(([name, value]) => [
              name,
              name === "site" ? replay.origin : value,
            ]),
          );
          const source: SourceHandle = {
            id: "replayed",
            companyId: "replay",
            connector: connector.key,
            account: recording.source.account,
            credentials,
            properties: recording.source.properties,
            readFile: async () => null,
            saveCredentials: async () => undefined,
            runtime: { providers, counters: env().ctx.rateLimits, outboundAllowHosts: ["127.0.0.1"] },
          };
          const table = await connector
            .query({
              source,
              type: recording.type,
              inputs: recording.inputs,
              range: recording.range,
              timezone: recording.timezone,
            })
            .catch((error: unknown) => {
              const recorded = recording.exchanges.map((exchange) => `${exchange.method} ${exchange.url}`);
              throw new Error(
                `${recording.connector} ${recording.type}: ${String(error)}; asked ${replay.unmatched.join(", ")}; recorded ${recorded.join(", ")}`,
              );
            });
          // The same table as the provider's answers made: its columns, its rows and its totals.
          const what = `${recording.connector} ${recording.type}`;
          expect(
            table.metrics.map((metric) => metric.key),
            what,
          ).toEqual(recording.table.metrics.map((m) => m.key));
          expect(
            table.rows.map((row) => row.values),
            what,
          ).toEqual(recording.table.rows.map((row) => row.values));
          expect(table.totals, what).toEqual(recording.table.totals);
          replayed += 1;
        }
        expect(replay.unmatched).toEqual([]);
        expect(replayed).toBe(recordings.filter((recording) => recording.exchanges.length > 0).length);
      } finally {
        await replay.close();
      }
    });

    it("credentials from the environment: one connector, its lines, and a connector without any is skipped", async () => {
      const { company } = await buildOwner(env());
      const running = await fakes.current();
      const [first, second] = typed;
      if (!first || !second) throw new Error("two connectors with a typed login are needed");
      const login = await fakeLoginOf(first, running.url);
      const { out, io } = capture();
      const code = await runConnectorsCheck(
        [first.key, second.key],
        deps(env(), company.id, {
          [`CONNECTORS_CHECK_${first.key.toUpperCase()}`]: JSON.stringify({
            credentials: { token: login.token },
            account: login.account,
          }),
        }),
        io,
      );
      const table = out.join("\n").split("\n");
      const of = (connector: Connector) => table.filter((entry) => entry.startsWith(`${connector.key} `));
      expect(of(first).length).toBe(first.widgetTypes.length);
      for (const entry of of(first)) expect(entry).toMatch(/ (ok|skipped needs a value) /);
      expect(of(second).length).toBe(second.widgetTypes.length);
      for (const entry of of(second)) {
        expect(entry).toContain(
          ` skipped no credentials (CONNECTORS_CHECK_${second.key.toUpperCase()}, or --source <id>)`,
        );
      }
      expect(code).toBe(0);
    });

    it("a wrong key is a refused line and a failing exit; unknown connectors and bad options are usage errors", async () => {
      const { company } = await buildOwner(env());
      const [first] = typed;
      if (!first) throw new Error("a connector with a typed login is needed");
      const login = await fakeLoginOf(first, (await fakes.current()).url);
      const wrong = capture();
      const code = await runConnectorsCheck(
        [first.key],
        deps(env(), company.id, {
          [`CONNECTORS_CHECK_${first.key.toUpperCase()}`]: JSON.stringify({
            credentials: { token: "not-the-key" },
            account: login.account,
          }),
        }),
        wrong.io,
      );
      const lines = wrong.out.join("\n").split("\n");
      for (const entry of lines.slice(0, -1))
        expect(entry).toMatch(new RegExp(`^${first.key} \\S+ (refused auth|skipped)`));
      expect(lines.at(-1)).toBe(`0/${first.widgetTypes.length} ok`);
      expect(code).toBe(1);
      const unknown = capture();
      expect(await runConnectorsCheck(["nope"], deps(env(), company.id), unknown.io)).toBe(2);
      expect(unknown.errors.join("\n")).toContain("Unknown connector: nope.");
      const badInput = capture();
      expect(await runConnectorsCheck(["--all", "--input", "oops"], deps(env(), company.id), badInput.io)).toBe(2);
      expect(badInput.errors.join("\n")).toContain("write it as <widget type>.<parameter>=<value>");
    });
  },
  fakes.env,
);
