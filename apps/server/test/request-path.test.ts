import { expect, it } from "vitest";
import { buildOwner } from "./factories";
import { describeEachDb, sharedTemplateWidget, type TestClient } from "./harness";

/** The identification inlined in the SPA's HTML (the page-data script element). */
function identificationInHtml(html: string): string {
  const json = html.match(/<script id="page-data" type="application\/json">(.*?)<\/script>/s)?.[1];
  if (!json) throw new Error("no page data in the HTML");
  return JSON.parse(json).identification;
}

function guestCookie(response: Awaited<ReturnType<TestClient["raw"]>>) {
  return response.cookies.find((cookie) => cookie.name === "guest");
}

// What every request pays was cut (docs/decisions.md, "Request path: what every request paid"): these pin the behaviour the cuts must keep.
describeEachDb("request path", (env) => {
  it("a cookie-less visitor gets a guest cookie with page data (JSON and HTML), not with API calls or files", async () => {
    const visitor = env().client();
    for (const url of ["/api/health", "/api/dashboards/nope", "/api/sources", "/files/nope.png", "/api/docs/json"]) {
      const response = await visitor.raw("GET", url);
      expect(guestCookie(response), url).toBeUndefined();
      expect(response.headers["set-cookie"], url).toBeUndefined();
    }

    const json = await visitor.raw("GET", "/api/page-data");
    const minted = guestCookie(json);
    expect(minted?.value).toMatch(/^[\w-]{40,}$/);
    expect(minted).toMatchObject({ path: "/", httpOnly: true, sameSite: "Lax" });
    // With the cookie, the same guest: no new cookie, the same identification.
    const again = await visitor.raw("GET", "/api/page-data");
    expect(guestCookie(again)).toBeUndefined();
    expect(again.json().identification).toBe(json.json().identification);

    const other = env().client();
    const html = await other.raw("GET", "/dashboards/some-permalink");
    expect(html.headers["content-type"]).toContain("text/html");
    expect(guestCookie(html)?.value).toMatch(/^[\w-]{40,}$/);
    expect(identificationInHtml(html.body)).not.toBe(json.json().identification);
    expect(identificationInHtml((await other.raw("GET", "/dashboards/some-permalink")).body)).toBe(
      identificationInHtml(html.body),
    );
  });

  it("the guest's identification from the HTML page passes a public mutation; another guest's does not", async () => {
    const { client: owner } = await buildOwner(env());
    const { permalink, url, range } = await sharedTemplateWidget(owner);

    const guest = env().client();
    guest.identification = identificationInHtml((await guest.raw("GET", `/dashboards/${permalink}`)).body);
    expect((await guest.api("POST", url, range)).statusCode).toBe(200);

    const stranger = env().client();
    await stranger.raw("GET", `/dashboards/${permalink}`);
    stranger.identification = guest.identification;
    expect((await stranger.api("POST", url, range)).statusCode).toBe(419);
    // Without any page load (no guest cookie) an identification cannot match either.
    const cookieless = env().client();
    cookieless.identification = guest.identification;
    expect((await cookieless.api("POST", url, range)).statusCode).toBe(419);
  });

  it("a signed-in user's page data sets no guest cookie", async () => {
    const { client: user } = await buildOwner(env());
    const page = await user.raw("GET", "/api/page-data");
    expect(page.json().user).not.toBeNull();
    expect(guestCookie(page)).toBeUndefined();
    expect(guestCookie(await user.raw("GET", "/dashboards"))).toBeUndefined();
  });

  it("every answer carries the same security headers: data, errors, the HTML page", async () => {
    const visitor = env().client();
    const names = [
      "content-security-policy",
      "cross-origin-opener-policy",
      "cross-origin-resource-policy",
      "origin-agent-cluster",
      "referrer-policy",
      "strict-transport-security",
      "x-content-type-options",
      "x-dns-prefetch-control",
      "x-download-options",
      "x-permitted-cross-domain-policies",
      "x-xss-protection",
    ];
    const pick = (headers: Record<string, unknown>) => Object.fromEntries(names.map((n) => [n, headers[n]]));
    const health = await visitor.raw("GET", "/api/health");
    expect(health.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(health.headers["x-content-type-options"]).toBe("nosniff");
    const expected = pick(health.headers);
    for (const name of names) expect(expected[name], name).toBeTruthy();
    const answers = [
      await visitor.raw("GET", "/api/sources"), // 401
      await visitor.raw("POST", "/nope"), // 404
      await visitor.raw("GET", "/dashboards"), // the SPA's HTML
      await visitor.raw("POST", "/login", { body: { email: "" } }), // 422
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([401, 404, 200, 422]);
    for (const answer of answers) expect(pick(answer.headers)).toEqual(expected);
  });
});
