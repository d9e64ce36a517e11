import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import path from "node:path";
import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../src/infra/config";
import { fakeWebhookUrl } from "./fakes/stripe";
import { until } from "./wait";

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const serveScript = path.resolve(import.meta.dirname, "fakes/serve.ts");

describe("the Stripe fake's webhook address under npm run dev:fakes", () => {
  it.each([
    {
      name: "the server's APP_URL",
      env: {},
      appUrl: "http://127.0.0.1:3400/",
      url: "http://127.0.0.1:3400/api/payment/webhook",
    },
    {
      name: "the server's default address",
      env: {},
      appUrl: "http://localhost:3000",
      url: "http://localhost:3000/api/payment/webhook",
    },
    {
      name: "STRIPE_FAKE_WEBHOOK_URL wins",
      env: { STRIPE_FAKE_WEBHOOK_URL: "http://127.0.0.1:9/hook" },
      appUrl: "http://localhost:3000",
      url: "http://127.0.0.1:9/hook",
    },
    { name: "off sends none", env: { STRIPE_FAKE_WEBHOOK_URL: "off" }, appUrl: "http://localhost:3000", url: null },
  ])("$name", ({ env, appUrl, url }) => {
    expect(fakeWebhookUrl(env, appUrl)).toBe(url);
  });

  it("follows the server's own derivation of its address from PORT when APP_URL is unset", () => {
    const { appUrl } = loadConfig({ NODE_ENV: "development", PORT: "3456" });
    expect(fakeWebhookUrl({}, appUrl)).toBe("http://localhost:3456/api/payment/webhook");
  });
});

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Fakes {
  child: ChildProcess;
  env: Record<string, string>;
  stderr: () => string;
}

let children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children) child.kill("SIGKILL");
  children = [];
});

/** `npm run dev:fakes` as the README runs it (its stdout is the variables file), with `settings` in its environment. */
async function serveFakes(settings: Record<string, string>): Promise<Fakes> {
  const port = await freePort();
  const { STRIPE_FAKE_WEBHOOK_URL: _unset, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", serveScript], {
    cwd: repoRoot,
    env: { ...inherited, FAKES_PORT: String(port), ...settings },
  });
  children.push(child);
  let out = "";
  let err = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    err += d;
  });
  await until(() => err.includes("Stripe fake:"), 60_000);
  const env = Object.fromEntries(
    out
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const at = line.indexOf("=");
        return [line.slice(0, at), line.slice(at + 1)];
      }),
  );
  return { child, env, stderr: () => err };
}

/** A checkout the way the server opens one, paid in the Stripe.js shim: the session's id. */
async function payACheckout(env: Record<string, string>): Promise<string> {
  const form = new URLSearchParams({
    mode: "subscription",
    ui_mode: "embedded_page",
    "line_items[0][quantity]": "3",
    "line_items[0][price_data][currency]": "usd",
    "line_items[0][price_data][unit_amount]": "1500",
    "line_items[0][price_data][recurring][interval]": "month",
    "line_items[0][price_data][product_data][name]": "Reportz dashboards",
  });
  const created = await fetch(`${env.STRIPE_API_URL}/v1/checkout/sessions`, {
    method: "POST",
    headers: { authorization: `Bearer ${env.STRIPE_SECRET_KEY}`, "content-type": "application/x-www-form-urlencoded" },
    body: form,
  });
  expect(created.status).toBe(200);
  const session = (await created.json()) as { id: string; client_secret: string };
  const paid = await fetch(`${env.STRIPE_API_URL}/stripe-js/pay`, {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: JSON.stringify({
      client_secret: session.client_secret,
      key: env.STRIPE_PUBLISHABLE_KEY,
      card: "4242 4242 4242 4242",
    }),
  });
  expect(paid.status, await paid.clone().text()).toBe(200);
  expect(((await paid.json()) as { delivered: boolean }).delivered).toBe(true);
  return session.id;
}

describe("npm run dev:fakes", () => {
  it("sends the Stripe fake's signed webhooks to the server's APP_URL without STRIPE_FAKE_WEBHOOK_URL, and a restarted fake never reuses a session id", async () => {
    const received: Array<{ path: string; body: string; signature: string }> = [];
    const server = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        received.push({ path: String(request.url), body, signature: String(request.headers["stripe-signature"]) });
        response.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const first = await serveFakes({ APP_URL: appUrl });
      expect(first.stderr()).toContain(`webhooks go to ${appUrl}/api/payment/webhook`);
      const firstSession = await payACheckout(first.env);
      expect(received.map((hook) => hook.path)).toEqual(["/api/payment/webhook", "/api/payment/webhook"]);
      // Signed with the secret the variables file gives the server.
      const events = received.map((hook) =>
        Stripe.webhooks.constructEvent(hook.body, hook.signature, first.env.STRIPE_WEBHOOK_SECRET ?? ""),
      );
      expect(events.map((event) => event.type)).toEqual(["checkout.session.completed", "invoice.paid"]);
      first.child.kill("SIGTERM");
      await until(() => first.child.exitCode !== null || first.child.signalCode !== null, 20_000);

      // Started again (a new run): new ids for sessions and events alike.
      const second = await serveFakes({ APP_URL: appUrl });
      const secondSession = await payACheckout(second.env);
      expect(secondSession).not.toBe(firstSession);
      const ids = received.map((hook) => (JSON.parse(hook.body) as { id: string }).id);
      expect(new Set(ids).size).toBe(4);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
