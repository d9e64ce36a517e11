import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../infra/config";

/** docs/operations.md "Billing and payments": the Stripe variables and what payments-off means. */
describe("Stripe settings", () => {
  const base = { NODE_ENV: "test" as const, LOG_LEVEL: "silent" };

  it("without a secret key payments are off", () => {
    expect(loadConfig(base).stripe).toBeNull();
  });

  it("reads the keys and splits STRIPE_API_URL into the client's host, port and protocol", () => {
    const config = loadConfig({
      ...base,
      STRIPE_SECRET_KEY: "sk_test_abc",
      STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
      STRIPE_WEBHOOK_SECRET: "whsec_abc",
      STRIPE_API_URL: "http://127.0.0.1:4790",
    });
    expect(config.stripe).toMatchObject({
      secretKey: "sk_test_abc",
      publishableKey: "pk_test_abc",
      webhookSecret: "whsec_abc",
      api: { host: "127.0.0.1", port: 4790, protocol: "http" },
      jsUrl: "https://js.stripe.com/v3/",
      // Stripe Tax is opt-in.
      automaticTax: false,
    });
    expect(
      loadConfig({ ...base, STRIPE_SECRET_KEY: "sk_live_x", STRIPE_PUBLISHABLE_KEY: "pk_live_x" }).stripe?.api,
    ).toEqual({
      host: "api.stripe.com",
      port: 443,
      protocol: "https",
    });
  });

  it("STRIPE_AUTOMATIC_TAX=true asks Stripe Tax; anything but a boolean is refused, naming the variable", () => {
    const keys = { ...base, STRIPE_SECRET_KEY: "sk_test_abc", STRIPE_PUBLISHABLE_KEY: "pk_test_abc" };
    expect(loadConfig({ ...keys, STRIPE_AUTOMATIC_TAX: "true" }).stripe?.automaticTax).toBe(true);
    expect(loadConfig({ ...keys, STRIPE_AUTOMATIC_TAX: "false" }).stripe?.automaticTax).toBe(false);
    expect(() => loadConfig({ ...keys, STRIPE_AUTOMATIC_TAX: "yes" })).toThrow(/STRIPE_AUTOMATIC_TAX/);
  });

  it("refuses a secret key without its publishable key, and keys of the wrong kind, naming the variable", () => {
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: "sk_test_abc" })).toThrow(/STRIPE_PUBLISHABLE_KEY/);
    expect(() =>
      loadConfig({ ...base, STRIPE_SECRET_KEY: "pk_test_abc", STRIPE_PUBLISHABLE_KEY: "pk_test_abc" }),
    ).toThrow(ConfigError);
    expect(() =>
      loadConfig({
        ...base,
        STRIPE_SECRET_KEY: "sk_test_a",
        STRIPE_PUBLISHABLE_KEY: "pk_test_a",
        STRIPE_WEBHOOK_SECRET: "nope",
      }),
    ).toThrow(/STRIPE_WEBHOOK_SECRET/);
  });
});
