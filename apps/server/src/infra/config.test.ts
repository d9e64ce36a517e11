import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, ZEnv } from "./config";

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
    ["DEMO_PASSWORD", { DEMO_PASSWORD: "short" }],
    ["INVOICE_SELLER_COUNTRY", { INVOICE_SELLER_COUNTRY: "UK" }],
    ["INVOICE_SELLER_COUNTRY", { INVOICE_REVERSE_CHARGE: "true" }],
    ["INVOICE_SELLER_COUNTRY", { INVOICE_REVERSE_CHARGE: "true", INVOICE_SELLER_COUNTRY: "GB" }],
  ])("a wrong %s stops start-up with a message naming it", (variable, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:[\\s\\S]*${variable}`));
  });

  it("reads the invoice seller and the reverse charge", () => {
    expect(loadConfig({})).toMatchObject({
      invoiceSeller: { name: "Reportz", addressLines: [], vatId: null, country: null },
      invoiceReverseCharge: false,
    });
    const config = loadConfig({
      INVOICE_SELLER_NAME: "Reportz Ltd",
      INVOICE_SELLER_ADDRESS: "1 Main Street | Dublin D02 X285|Ireland",
      INVOICE_SELLER_VAT_ID: "IE1234567WA",
      INVOICE_SELLER_COUNTRY: "ie",
      INVOICE_REVERSE_CHARGE: "true",
    });
    expect(config.invoiceSeller).toEqual({
      name: "Reportz Ltd",
      addressLines: ["1 Main Street", "Dublin D02 X285", "Ireland"],
      vatId: "IE1234567WA",
      country: "IE",
    });
    expect(config.invoiceReverseCharge).toBe(true);
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
      loadConfig({
        NODE_ENV: "production",
        APP_KEY: "a-long-enough-production-key",
        APP_URL: "https://reports.example.com",
        SEED_DEMO: "true",
      }).seedDemo,
    ).toBe(false);
  });

  it.each([
    [{}, false],
    [{ APP_URL: "http://reports.example.com" }, false],
    [{ APP_URL: "https://reports.example.com" }, true],
    [{ APP_URL: "HTTPS://reports.example.com" }, true],
    [{ APP_URL: "http://localhost:3000", SECURE_COOKIES: "true" }, true],
    [{ APP_URL: "https://reports.example.com", SECURE_COOKIES: "false" }, true],
  ])("cookies are Secure for %j: %s", (env, secure) => {
    expect(loadConfig(env).secureCookies).toBe(secure);
  });

  it("refuses to start in production without APP_URL, in one line naming it", () => {
    const production = { NODE_ENV: "production", APP_KEY: "a-long-enough-production-key" };
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig(production)).toThrow(
      "Invalid configuration: APP_URL is required in production (the address users open, such as https://reports.example.com; e-mail links and embed snippets are built from it)",
    );
    // Empty counts as unset (`.env.example` is copied with empty values).
    expect(() => loadConfig({ ...production, APP_URL: "" })).toThrow(/APP_URL is required in production/);
    const configured = loadConfig({ ...production, APP_URL: "https://reports.example.com" });
    expect(configured.appUrl).toBe("https://reports.example.com");
    expect(configured.warnings).toEqual([]);
  });

  it.each([["development"], ["test"]])("in %s, runs on localhost without APP_URL and says so once", (mode) => {
    const config = loadConfig({ NODE_ENV: mode, PORT: "4100" });
    expect(config.appUrl).toBe("http://localhost:4100");
    expect(config.warnings).toEqual([
      "APP_URL is not set: e-mail links and embed snippets point to http://localhost:4100, which only this computer can open. Set APP_URL to the address users open.",
    ]);
    expect(loadConfig({ NODE_ENV: mode, APP_URL: "http://reports.lan:4100" }).warnings).toEqual([]);
  });

  it("takes an explicit demo password, else none (a random one is made at seeding)", () => {
    expect(loadConfig({}).demoPassword).toBeNull();
    expect(loadConfig({ DEMO_PASSWORD: "known-demo-pass" }).demoPassword).toBe("known-demo-pass");
  });
});

describe("empty values", () => {
  it("mean unset for every variable", () => {
    const empty = Object.fromEntries(Object.keys(ZEnv.shape).map((name) => [name, ""]));
    expect(loadConfig(empty)).toEqual(loadConfig({}));
  });
});

describe("operations settings", () => {
  it("reports nothing and lets only loopback read metrics by default", () => {
    const config = loadConfig({});
    expect(config.errorReporting).toEqual({ dsn: null, browserDsn: null, sampleRate: 0.2 });
    expect(config.opsToken).toBeNull();
    expect(config.metrics.allow).toEqual([
      { address: "127.0.0.0", prefix: 8, family: "ipv4" },
      { address: "::1", prefix: 128, family: "ipv6" },
    ]);
  });

  it("gives the browser the server's DSN unless it has its own", () => {
    const dsn = "https://key@o1.ingest.example.com/2";
    expect(loadConfig({ SENTRY_DSN: dsn }).errorReporting.browserDsn).toBe(dsn);
    expect(
      loadConfig({ SENTRY_DSN: dsn, SENTRY_BROWSER_DSN: "https://other@o1.ingest.example.com/3" }).errorReporting
        .browserDsn,
    ).toBe("https://other@o1.ingest.example.com/3");
  });

  it.each([
    ["METRICS_ALLOW", { METRICS_ALLOW: "10.0.0.0/33" }],
    ["METRICS_ALLOW", { METRICS_ALLOW: "localhost" }],
    ["OPS_TOKEN", { OPS_TOKEN: "short" }],
    ["SENTRY_DSN", { SENTRY_DSN: "not a url" }],
    ["SENTRY_DSN", { SENTRY_DSN: "https://public-key@o1.ingest.example.com/2" }],
    ["SENTRY_SAMPLE_RATE", { SENTRY_SAMPLE_RATE: "2" }],
  ])("a wrong %s stops start-up", (variable, env) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(variable));
  });
});

describe("EMBED_FRAME_ANCESTORS", () => {
  it("defaults to any site and reads a list of origins", () => {
    expect(loadConfig({}).embedFrameAncestors).toEqual(["*"]);
    expect(
      loadConfig({ EMBED_FRAME_ANCESTORS: "https://client.example, https://*.agency.example http://localhost:8080" })
        .embedFrameAncestors,
    ).toEqual(["https://client.example", "https://*.agency.example", "http://localhost:8080"]);
  });

  it.each(["'none'", "https://a.example; script-src *", "javascript:alert(1)", "client.example"])(
    "refuses %j (it would break or widen the policy)",
    (value) => {
      expect(() => loadConfig({ EMBED_FRAME_ANCESTORS: value })).toThrow(/EMBED_FRAME_ANCESTORS/);
    },
  );
});
