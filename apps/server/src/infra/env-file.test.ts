import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { loadConfig, ZEnv } from "./config";
import { envFileCandidates, loadEnvFile, REPOSITORY_ROOT } from "./env-file";

const example = fs.readFileSync(path.join(REPOSITORY_ROOT, ".env.example"), "utf8");

describe(".env.example", () => {
  it("names every variable the configuration reads", () => {
    const listed = Object.keys(parseEnv(example));
    expect(listed.sort()).toEqual(Object.keys(ZEnv.shape).sort());
  });

  it("copied as it is, gives a valid configuration equal to the defaults", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-env-"));
    try {
      fs.copyFileSync(path.join(REPOSITORY_ROOT, ".env.example"), path.join(dir, ".env"));
      const env: NodeJS.ProcessEnv = { INIT_CWD: dir };
      expect(loadEnvFile(env, envFileCandidates(env))).toBe(path.join(dir, ".env"));
      expect(Object.keys(env).length).toBeGreaterThan(30);
      expect(loadConfig(env)).toEqual(loadConfig({ INIT_CWD: dir }));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("loadEnvFile", () => {
  it("fills what the environment does not set; real variables win; the first file found is read", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-env-"));
    try {
      fs.writeFileSync(path.join(dir, ".env"), "PORT=4123\nSITE_TITLE=From file\n# a comment\nLOG_LEVEL=\n");
      const env: NodeJS.ProcessEnv = { SITE_TITLE: "From the environment" };
      expect(loadEnvFile(env, [path.join(dir, "missing", ".env"), path.join(dir, ".env")])).toBe(
        path.join(dir, ".env"),
      );
      const config = loadConfig(env);
      expect(config.port).toBe(4123);
      expect(config.siteTitle).toBe("From the environment");
      expect(config.logLevel).toBe("info");
      expect(loadEnvFile({}, [path.join(dir, "missing", ".env")])).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("looks where the user ran the command first, then the repository", () => {
    const candidates = envFileCandidates({ INIT_CWD: "/somewhere" });
    expect(candidates[0]).toBe("/somewhere/.env");
    expect(candidates.at(-1)).toBe(path.join(REPOSITORY_ROOT, ".env"));
  });
});
