import Fastify from "fastify";
import { expect, it } from "vitest";
import { buildOwner } from "../../test/factories";
import { describeEachDb } from "../../test/harness";
import { ALLOW_FRAMING, paymentOrigins, securityHeaders } from "./security-headers";

function directives(csp: unknown): Map<string, string> {
  return new Map(
    String(csp)
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name, values.join(" ")]),
  );
}

function expectNoFraming(headers: Record<string, unknown>) {
  expect(headers["x-frame-options"]).toBe("DENY");
  const csp = directives(headers["content-security-policy"]);
  expect(csp.get("frame-ancestors")).toBe("'none'");
  expect(csp.get("form-action")).toBe("'self'");
}

describeEachDb("security headers", (env) => {
  it("the SPA page, an API answer, the public dashboard, an error and a file refuse framing and foreign forms", async () => {
    const { client: owner } = await buildOwner(env());
    const permalink = (await owner.api("POST", "/api/dashboards", { name: "Shared" })).json().data.permalink;
    const guest = env().client();
    const answers = [
      await guest.raw("GET", "/login"),
      await guest.raw("GET", `/dashboards/${permalink}`),
      await guest.api("GET", `/api/dashboards/${permalink}`),
      await owner.api("GET", "/api/company"),
      await guest.api("GET", "/api/company"),
      await guest.raw("GET", "/api/health"),
      await guest.raw("GET", "/files/nope/missing.png"),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 401, 200, 404]);
    expect(answers[1].headers["content-type"]).toMatch(/text\/html/);
    for (const answer of answers) expectNoFraming(answer.headers);
  });
});

it("a route opts into framing only through ALLOW_FRAMING; the others stay unframeable", async () => {
  const app = Fastify();
  securityHeaders(app);
  app.get("/embed", { config: { ...ALLOW_FRAMING } }, async () => "embedded");
  app.get("/page", async () => "page");
  const embed = await app.inject({ method: "GET", url: "/embed" });
  expect(embed.headers["x-frame-options"]).toBeUndefined();
  const csp = directives(embed.headers["content-security-policy"]);
  expect(csp.get("frame-ancestors")).toBe("*");
  expect(csp.get("form-action")).toBe("'self'");
  expectNoFraming((await app.inject({ method: "GET", url: "/page" })).headers);
  await app.close();
});

it("with card payments on, Stripe.js may load, frame its checkout and call Stripe; nothing else is opened", async () => {
  const app = Fastify();
  securityHeaders(app, [], ["*"], paymentOrigins("https://js.stripe.com/clover/stripe.js"));
  app.get("/", async () => "ok");
  const csp = directives((await app.inject({ method: "GET", url: "/" })).headers["content-security-policy"]);
  expect(csp.get("script-src")).toBe("'self' https://js.stripe.com");
  expect(csp.get("frame-src")).toBe(
    "'self' https://js.stripe.com https://checkout.stripe.com https://hooks.stripe.com",
  );
  expect(csp.get("connect-src")).toBe(
    "'self' ws: wss: https://js.stripe.com https://api.stripe.com https://checkout.stripe.com",
  );
  expect(csp.get("frame-ancestors")).toBe("'none'");
  // The offline fake serves Stripe.js, its frame and its calls from one origin; no payments, no extra origin.
  expect(paymentOrigins("http://127.0.0.1:4716/stripe-js/stripe.js").script).toEqual(["http://127.0.0.1:4716"]);
  expect(paymentOrigins(null)).toEqual({});
  await app.close();
});
