import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("loadConfig", () => {
  it("gives defaults for a bare environment", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: null,
      siteTitle: "Reportz",
      seedDemo: true,
      env: "development",
    });
    expect(config.dataDir).toMatch(/data$/);
  });

  it.each([
    ["PORT", { PORT: "eighty" }],
    ["PORT", { PORT: "70000" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://nope" }],
    ["SMTP_URL", { SMTP_URL: "http://mail" }],
    ["LOG_LEVEL", { LOG_LEVEL: "loud" }],
    ["APP_KEY", { APP_KEY: "short" }],
    ["APP_KEY", { NODE_ENV: "production" }],
    ["NODE_ENV", { NODE_ENV: "staging" }],
  ])("a wrong %s stops start-up with a message naming it", (variable, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:[\\s\\S]*${variable}`));
  });

  it("reads PostgreSQL and overrides", () => {
    const config = loadConfig({
      DATABASE_URL: "postgres://u@h/db",
      PORT: "4000",
      DATA_DIR: "/tmp/x",
      SEED_DEMO: "false",
    });
    expect(config).toMatchObject({ databaseUrl: "postgres://u@h/db", port: 4000, dataDir: "/tmp/x", seedDemo: false });
  });

  it("never seeds the demo account in production", () => {
    expect(
      loadConfig({ NODE_ENV: "production", APP_KEY: "a-long-enough-production-key", SEED_DEMO: "true" }).seedDemo,
    ).toBe(false);
  });
});
