import { expect, it } from "vitest";
import { buildDashboard, buildOwner } from "../../../test/factories";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";

/** The `<title>` of the HTML a browser receives before the app loads. */
async function htmlTitle(client: TestClient, url: string): Promise<string> {
  const response = await client.raw("GET", url, { headers: { accept: "text/html" } });
  expect(response.statusCode).toBe(200);
  expect(response.headers["content-type"]).toContain("text/html");
  const titles = [...response.body.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);
  expect(titles).toHaveLength(1);
  return titles[0];
}

async function agencyWithDashboard(env: TestEnv, siteTitle: string, dashboardName: string) {
  const { client, company, user } = await buildOwner(env, { company: { name: "Acme Agency", site_title: siteTitle } });
  const { permalink, id } = await buildDashboard(env, { company, user, name: dashboardName });
  return { client, permalink, id };
}

describeEachDb("page title of the served HTML (white label)", (env) => {
  it("a client opening a dashboard gets its name and the agency's site title, on every dashboard page", async () => {
    const { client: agency, permalink } = await agencyWithDashboard(env(), "Acme Reports", "Q3 SEO report");
    const client = env().client();
    for (const suffix of ["", "/print", "/realtime", "?range=last_7_days"]) {
      expect(await htmlTitle(client, `/dashboards/${permalink}${suffix}`)).toBe("Q3 SEO report | Acme Reports");
    }
    // A member of another company is a public viewer too: the owner's white label, not their own.
    const { client: other } = await buildOwner(env());
    await other.apiMultipart("POST", "/api/company", { name: "Beta", site_title: "Beta Insights" });
    expect(await htmlTitle(other, `/dashboards/${permalink}`)).toBe("Q3 SEO report | Acme Reports");
    expect(await htmlTitle(other, "/dashboards")).toBe("Dashboards | Beta Insights");
    // The agency's own members see their title too.
    expect(await htmlTitle(agency, `/dashboards/${permalink}`)).toBe("Q3 SEO report | Acme Reports");
  });

  it("a protected dashboard names only the agency before the password, and its 422 carries that title", async () => {
    const { client: agency, permalink, id } = await agencyWithDashboard(env(), "Acme Reports", "Secret plans");
    await agency.api("PUT", `/api/dashboards/${id}`, { category: "new_password", password: "client-secret" });
    const client = env().client();
    const title = await htmlTitle(client, `/dashboards/${permalink}`);
    expect(title).toBe("Acme Reports");
    const page = await client.raw("GET", `/dashboards/${permalink}`);
    expect(page.body).not.toContain("Secret plans");

    const prompt = await client.raw("GET", `/api/dashboards/${permalink}`);
    expect(prompt.statusCode).toBe(422);
    expect(prompt.json()).toEqual({
      code: "validation",
      message: "The given data was invalid.",
      errors: { password: ["This dashboard is password protected."] },
      siteTitle: "Acme Reports",
      // The prompt asks in the client's language (docs/product.md §9, "Report language").
      language: "en",
    });
    const wrong = await client.raw("GET", `/api/dashboards/${permalink}`, { headers: { "x-authorization": "nope" } });
    expect(wrong.json()).toMatchObject({
      errors: { password: ["The password is incorrect."] },
      siteTitle: "Acme Reports",
    });
    expect(JSON.stringify(wrong.json())).not.toContain("Secret plans");
    // The owner's members still see the name.
    expect(await htmlTitle(agency, `/dashboards/${permalink}`)).toBe("Secret plans | Acme Reports");
  });

  it("an agency without a site title, an archived or unknown dashboard, and other pages fall back safely", async () => {
    const { client: plain, company, user } = await buildOwner(env());
    const { permalink, id } = await buildDashboard(env(), { company, user, name: "Plain" });
    const guest = env().client();
    expect(await htmlTitle(guest, `/dashboards/${permalink}`)).toBe("Plain | Reportz");
    await plain.api("DELETE", `/api/dashboards/${id}/archive`);
    // Archived: a public viewer gets a 404 from the API, so the title names nothing of it.
    expect(await htmlTitle(guest, `/dashboards/${permalink}`)).toBe("Reportz");
    expect(await htmlTitle(guest, "/dashboards/no-such-permalink")).toBe("Reportz");
    // A malformed escape never reaches the route matching (Fastify answers 400 first).
    expect((await guest.raw("GET", "/dashboards/%E0%A4%A")).statusCode).toBe(400);
    expect(await htmlTitle(guest, "/login")).toBe("Log In | Reportz");
    expect(await htmlTitle(guest, "/nowhere/at/all")).toBe("Page Not Found | Reportz");
  });

  it("escapes the title and takes user text literally (no markup, no replacement patterns)", async () => {
    const { client: agency, permalink } = await agencyWithDashboard(
      env(),
      "A&B $' <Reports>",
      "Q$& </title><script>x</script>",
    );
    const client = env().client();
    const response = await client.raw("GET", `/dashboards/${permalink}`);
    expect(response.body).toContain(
      "<title>Q$&#38; &#60;/title&#62;&#60;script&#62;x&#60;/script&#62; | A&#38;B $&#39; &#60;Reports&#62;</title>",
    );
    expect(response.body).not.toContain("<script>x");
    // The member's page data carries the site title verbatim in JSON: "$'" stays text, the JSON intact.
    const own = await agency.raw("GET", "/dashboards");
    const json = /<script id="page-data" type="application\/json">(.*?)<\/script>/s.exec(own.body)?.[1];
    expect(JSON.parse(String(json)).siteTitle).toBe("A&B $' <Reports>");
  });

  it("a page whose link has no dashboard to name its language: the archived one's, else the browser's, else English", async () => {
    const { client: agency, permalink, id } = await agencyWithDashboard(env(), "Acme Reports", "Rapport");
    const client = env().client();
    const lang = async (url: string, acceptLanguage?: string) => {
      const headers: Record<string, string> = { accept: "text/html" };
      if (acceptLanguage) headers["accept-language"] = acceptLanguage;
      const response = await client.raw("GET", url, { headers });
      expect(response.statusCode).toBe(200);
      return /<html\b[^>]*\slang="([^"]*)"/.exec(response.body)?.[1];
    };
    // No such dashboard: the reader's browser's first supported language, else English.
    expect(await lang("/dashboards/no-such-permalink", "de-AT,de;q=0.9,en;q=0.8")).toBe("de");
    expect(await lang("/dashboards/no-such-permalink/embed?token=x", "ja,sl;q=0.5")).toBe("sl");
    expect(await lang("/dashboards/no-such-permalink", "ja")).toBe("en");
    expect(await lang("/dashboards/no-such-permalink")).toBe("en");
    // An archived dashboard's link is still its client's: its own language, whatever the browser says.
    expect((await agency.apiMultipart("POST", `/api/dashboards/${id}`, { language: "fr" })).statusCode).toBe(200);
    expect(await lang(`/dashboards/${permalink}`, "de")).toBe("fr");
    await agency.api("DELETE", `/api/dashboards/${id}/archive`);
    expect(await lang(`/dashboards/${permalink}`, "de")).toBe("fr");
  });
});
