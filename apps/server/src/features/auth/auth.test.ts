import { describe, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { describeEachDb, multipart, startTestEnv } from "../../../test/harness";

describeEachDb("registration", (env) => {
  it("creates the company in its trial, its admin, and signs the user in", async () => {
    const client = env().client();
    const { response, email } = await client.register({ dashboards: 40, interval: 12 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { redirect: "/intro" } });
    const session = response.cookies.find((c) => c.name === "session");
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe("Lax");
    const page = await client.pageData();
    expect(page.user).toMatchObject({
      email,
      roleName: "admin",
      creator: true,
      termsConsent: true,
      ageConsent: true,
      introPassed: false,
    });
    expect(page.company).toMatchObject({
      state: "trial",
      services: { dashboards: 40, bonusDashboards: 0 },
      isTrialWithoutSubscription: true,
    });
    expect(page.session).toMatchObject({
      userId: page.user.id,
      roleName: "admin",
      termsConsent: true,
      ageConsent: true,
    });
    expect(page.messages.map((m: { code: number }) => m.code)).toEqual([120]);
  });

  it.each([
    ["an IANA zone", "Europe/Berlin", "Europe/Berlin"],
    ["a zone in another case", "america/new_york", "America/New_York"],
    ["an unknown zone", "Mars/Olympus_Mons", "UTC"],
    ["a fixed offset", "+02:00", "UTC"],
    ["an empty zone", "", "UTC"],
    ["a zone too long", `Europe/${"x".repeat(200)}`, "UTC"],
    ["a number", 42, "UTC"],
    ["no zone", undefined, "UTC"],
  ])("takes the browser's zone for the user and the company: %s → %s", async (_case, timezone, expected) => {
    const client = env().client();
    const { response } = await client.register(timezone === undefined ? {} : { timezone });
    // Never refused for its zone.
    expect(response.statusCode).toBe(200);
    const page = await client.pageData();
    expect(page.user.timezone).toBe(expected);
    expect(page.session.timezone).toBe(expected);
    expect(page.company.timezone).toBe(expected);
  });

  it("accepts form data (urlencoded and multipart) as well as JSON", async () => {
    const urlencoded = await env()
      .client()
      .raw("POST", "/register", {
        payload: `name=Form+User&email=form-${Date.now()}%40example.com&password=longenough&password_confirmation=longenough&terms_consent=1&age_consent=1&coupons=%5B%5D`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
    expect(urlencoded.statusCode).toBe(200);
    const body = multipart({
      name: "Multi Part",
      email: `multi-${Date.now()}@example.com`,
      password: "longenough",
      password_confirmation: "longenough",
      terms_consent: "true",
      age_consent: "true",
      dashboards: "3",
    });
    const response = await env().client().raw("POST", "/register", { payload: body.payload, headers: body.headers });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ["missing name and email", { name: "", email: "" }, ["name", "email"]],
    ["short password", { password: "short", password_confirmation: "short" }, ["password", "password_confirmation"]],
    ["confirmation differs", { password_confirmation: "different-pass" }, ["password_confirmation"]],
    ["no terms consent", { terms_consent: false }, ["terms_consent"]],
    ["no age consent", { age_consent: false }, ["age_consent"]],
    ["zero dashboards", { dashboards: 0 }, ["dashboards"]],
    ["more dashboards than the maximum", { dashboards: 1001 }, ["dashboards"]],
    ["a field the form does not have", { plan: "gold" }, ["general"]],
    ["interval 6", { interval: 6 }, ["general"]],
    ["coupons not a JSON list", { coupons: "SAVE10" }, ["coupon"]],
    ["bad email", { email: "not-an-email" }, ["email"]],
  ])("422 with per-field errors: %s", async (_label, overrides, fields) => {
    const { response } = await env().client().register(overrides);
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(body.message).toBe("The given data was invalid.");
    expect(Object.keys(body.errors).sort()).toEqual([...fields].sort());
    expect(response.cookies.find((c) => c.name === "session")).toBeUndefined();
  });

  it("refuses an e-mail that is already registered and keeps the first account", async () => {
    const first = await env().client().register();
    const again = await env().client().register({ email: first.email.toUpperCase() });
    expect(again.response.statusCode).toBe(422);
    expect(again.response.json().errors.email).toEqual(["The email has already been taken."]);
    expect((await env().client().login(first.email, first.password)).statusCode).toBe(200);
  });
});

describeEachDb("login and logout", (env) => {
  it("signs in with the right password, rotating the session token", async () => {
    const { client: owner, email, password } = await buildOwner(env());
    const firstToken = owner.cookie("session");
    const again = await owner.login(email, password);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ data: { redirect: "/dashboards" } });
    const newToken = again.cookies.find((c) => c.name === "session")?.value;
    expect(newToken).toBeTruthy();
    expect(newToken).not.toBe(firstToken);
    // The old session token no longer works.
    const stale = env().client();
    const response = await stale.raw("GET", "/api/company", { headers: { cookie: `session=${firstToken}` } });
    expect(response.statusCode).toBe(401);
  });

  it("refuses a wrong password with a 422 on email", async () => {
    const { email } = await buildOwner(env());
    const response = await env().client().login(email, "wrong-password");
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.email).toEqual(["These credentials do not match our records."]);
  });

  it("logs out: the session stops working", async () => {
    const { client } = await buildOwner(env());
    expect((await client.api("GET", "/api/company")).statusCode).toBe(200);
    const out = await client.raw("POST", "/logout", { headers: { "x-requested-with": "XMLHttpRequest" } });
    expect(out.statusCode).toBe(204);
    expect((await client.api("GET", "/api/company")).statusCode).toBe(401);
  });
});

describeEachDb("request protection", (env) => {
  it("401 for unauthenticated /api calls", async () => {
    const guest = env().client();
    for (const [method, url] of [
      ["GET", "/api/company"],
      ["GET", "/api/users"],
      ["POST", "/api/users"],
      ["DELETE", "/api/company"],
      ["PUT", "/api/users/x"],
    ] as const) {
      expect((await guest.api(method, url, {})).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("419 for a mutation without X-Requested-With or with another session's identification", async () => {
    const { client: a } = await buildOwner(env());
    const { client: b } = await buildOwner(env());
    const body = { name: "New Name" };
    const noHeader = await a.raw("POST", "/api/company", { body, headers: { "x-identification": a.identification } });
    expect(noHeader.statusCode).toBe(419);
    const noIdentification = await a.raw("POST", "/api/company", {
      body,
      headers: { "x-requested-with": "XMLHttpRequest" },
    });
    expect(noIdentification.statusCode).toBe(419);
    const foreign = await a.raw("POST", "/api/company", {
      body,
      headers: { "x-requested-with": "XMLHttpRequest", "x-identification": b.identification },
    });
    expect(foreign.statusCode).toBe(419);
    const crossOrigin = await a.api("POST", "/api/company", body, { origin: "https://evil.example" });
    expect(crossOrigin.statusCode).toBe(419);
    expect((await a.api("GET", "/api/company")).json().data.name).not.toBe("New Name");
  });

  it("page data is inlined in the HTML of any non-API path", async () => {
    const { client } = await buildOwner(env());
    const response = await client.raw("GET", "/some/unknown/page");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
    const json = /<script id="page-data" type="application\/json">(.*?)<\/script>/s.exec(response.body)?.[1];
    const data = JSON.parse(String(json));
    expect(data.identification).toBe(client.identification);
    expect(data.user.roleName).toBe("admin");
  });

  it("unknown /api paths are 404 JSON, not the app", async () => {
    const { client } = await buildOwner(env());
    const response = await client.api("GET", "/api/nope");
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe("not_found");
  });
});

describe("rate limits", () => {
  it("429 beyond the login limit per address", async () => {
    const env = await startTestEnv("sqlite", { RATE_LIMIT_AUTH_MAX: "3" });
    try {
      const client = env.client();
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await client.login("nobody@example.com", "whatever-pass")).statusCode);
      expect(statuses).toEqual([422, 422, 422, 429, 429]);
      const registerStatuses: number[] = [];
      for (let i = 0; i < 4; i++) registerStatuses.push((await client.register({ name: "" })).response.statusCode);
      expect(registerStatuses).toEqual([422, 422, 422, 429]);
    } finally {
      await env.close();
    }
  });
});
