import { CUSTOM_DOMAIN_MESSAGES, type TCompany } from "@app/core";
import { afterAll, expect, it } from "vitest";
import { type DnsZone, startDnsServer } from "../../../test/dns-server";
import { buildDashboard, buildMember, buildOwner } from "../../../test/factories";
import { describeEachDb, PNG_1X1, type TestEnv } from "../../../test/harness";

// The app's own address in these tests; custom domains point their CNAME at its host by default.
const APP_HOST = "app.reportz.test";
const zone: DnsZone = {};
let dns: Awaited<ReturnType<typeof startDnsServer>>;

/** A visitor on some host, without a session: what a client of the agency's browser sends. */
function visitor(env: TestEnv, host: string) {
  let cookie = "";
  let identification = "";
  const send = async (method: "GET" | "POST", url: string, body?: object) => {
    const response = await env.app.inject({
      method,
      url,
      headers: {
        host,
        ...(cookie && { cookie }),
        ...(method === "POST" && { "x-requested-with": "XMLHttpRequest", "x-identification": identification }),
      },
      ...(body && { payload: body }),
    });
    const set = response.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    if (set) cookie = set;
    return response;
  };
  return {
    send,
    async boot() {
      const response = await send("GET", "/api/page-data");
      identification = response.json().identification;
      return response;
    },
  };
}

describeEachDb(
  "white-label domain: setting, DNS verification, Host routing",
  (env) => {
    afterAll(() => dns.close());

    /** An owner whose company has `domain` set through the settings form, and verified when asked. */
    async function agency(domain: string, options: { verify?: boolean; siteTitle?: string | null } = {}) {
      const owner = await buildOwner(env(), {
        company: { name: `Agency ${domain}`, site_title: options.siteTitle ?? null },
      });
      const set = await owner.client.api("POST", "/api/company", { domain_cname: domain });
      expect(set.statusCode).toBe(200);
      if (options.verify !== false) {
        (zone.cname as Record<string, string>)[domain] = set.json().data.domainRecord.value;
        const verified = await owner.client.api("POST", "/api/company/domain/verify", {});
        expect(verified.json().data.domainRecord.verified).toBe(true);
      }
      return owner;
    }

    it("an admin sets the domain and sees the CNAME to create; refusals are 422 on the field", async () => {
      const owner = await buildOwner(env());
      const set = await owner.client.api("POST", "/api/company", { domain_cname: " Reports.Acme-Agency.example. " });
      expect(set.statusCode).toBe(200);
      const company: TCompany = set.json().data;
      expect(company.domainCname).toBe("reports.acme-agency.example");
      expect(company.domainRecord).toEqual({
        type: "CNAME",
        host: "reports.acme-agency.example",
        // A target of this company's own under the app's host.
        value: expect.stringMatching(new RegExp(`^d-[0-9a-f]{16}\\.${APP_HOST.replaceAll(".", "\\.")}$`)),
        verified: false,
        problem: null,
      });
      const other = await buildOwner(env());
      for (const [domain, message] of [
        ["https://reports.example/x", CUSTOM_DOMAIN_MESSAGES.hostname],
        ["localhost", CUSTOM_DOMAIN_MESSAGES.hostname],
        ["192.168.1.20", CUSTOM_DOMAIN_MESSAGES.ipAddress],
        [APP_HOST, CUSTOM_DOMAIN_MESSAGES.ownHost],
        [company.domainRecord?.value ?? "", CUSTOM_DOMAIN_MESSAGES.ownHost],
      ]) {
        const refused = await other.client.api("POST", "/api/company", { domain_cname: domain });
        expect(refused.statusCode, domain).toBe(422);
        expect(refused.json().errors).toEqual({ domain_cname: [message] });
      }
      const member = await buildMember(env(), { company: owner.company });
      expect((await member.client.api("POST", "/api/company/domain/verify", {})).statusCode).toBe(403);
      // Emptying the field removes the domain.
      const cleared = await owner.client.api("POST", "/api/company", { domain_cname: "" });
      expect(cleared.json().data).toMatchObject({ domainCname: null, domainRecord: null });
    });

    it("a claim holds nothing: the company whose CNAME is found gets the domain, and only then is it taken", async () => {
      // A squatter types the agency's domain first; the agency can still add it and verify it.
      const squatter = await buildOwner(env());
      expect(
        (await squatter.client.api("POST", "/api/company", { domain_cname: "clients.fabrikam.example" })).statusCode,
      ).toBe(200);
      const agencyOwner = await agency("clients.fabrikam.example");
      expect((await agencyOwner.client.api("GET", "/api/company")).json().data.domainRecord.verified).toBe(true);
      // The squatter's DNS check cannot pass (the CNAME names the agency's target), and now the domain is taken.
      const squatterCheck = await squatter.client.api("POST", "/api/company/domain/verify", {});
      expect(squatterCheck.json().data.domainRecord).toMatchObject({ verified: false });
      const late = await buildOwner(env());
      const refused = await late.client.api("POST", "/api/company", { domain_cname: "Clients.Fabrikam.example" });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toEqual({ domain_cname: [CUSTOM_DOMAIN_MESSAGES.taken] });
      // The domain moves when its DNS does: the squatter re-claims, the record now names the squatter's
      // target (say the agency handed the domain over), the squatter verifies and the agency loses it.
      const squatterTarget = (await squatter.client.api("GET", "/api/company")).json().data.domainRecord
        .value as string;
      (zone.cname as Record<string, string>)["clients.fabrikam.example"] = squatterTarget;
      const moved = await squatter.client.api("POST", "/api/company/domain/verify", {});
      expect(moved.json().data.domainRecord).toMatchObject({ verified: true });
      expect((await agencyOwner.client.api("GET", "/api/company")).json().data.domainRecord.verified).toBe(false);
      const allowed = await env().app.inject({
        method: "GET",
        url: "/api/domains/allowed?domain=clients.fabrikam.example",
      });
      expect(allowed.statusCode).toBe(200);
    });

    it("Verify fails until the CNAME exists and points at us, then succeeds; a new domain starts again", async () => {
      const owner = await buildOwner(env());
      const none = await owner.client.api("POST", "/api/company/domain/verify", {});
      expect(none.statusCode).toBe(422);
      expect(none.json().errors).toEqual({ domain_cname: [CUSTOM_DOMAIN_MESSAGES.notSet] });
      const target = (await owner.client.api("POST", "/api/company", { domain_cname: "dash.northwind.example" })).json()
        .data.domainRecord.value as string;
      let record = (await owner.client.api("POST", "/api/company/domain/verify", {})).json().data.domainRecord;
      expect(record).toMatchObject({
        verified: false,
        problem: "No CNAME record found at dash.northwind.example.",
      });
      (zone.cname as Record<string, string>)["dash.northwind.example"] = "elsewhere.example";
      record = (await owner.client.api("POST", "/api/company/domain/verify", {})).json().data.domainRecord;
      expect(record.problem).toBe(`dash.northwind.example points at elsewhere.example, not ${target}.`);
      // A CNAME made for another company (its own target) proves nothing for this one.
      const rival = await buildOwner(env());
      await rival.client.api("POST", "/api/company", { domain_cname: "rival.northwind.example" });
      const rivalTarget = (await rival.client.api("GET", "/api/company")).json().data.domainRecord.value as string;
      expect(rivalTarget).not.toBe(target);
      (zone.cname as Record<string, string>)["dash.northwind.example"] = rivalTarget;
      record = (await owner.client.api("POST", "/api/company/domain/verify", {})).json().data.domainRecord;
      expect(record).toMatchObject({ verified: false });
      (zone.cname as Record<string, string>)["dash.northwind.example"] = target;
      record = (await owner.client.api("POST", "/api/company/domain/verify", {})).json().data.domainRecord;
      expect(record).toMatchObject({ verified: true, problem: null });
      expect((await owner.client.api("GET", "/api/company")).json().data.domainRecord.verified).toBe(true);
      const changed = await owner.client.api("POST", "/api/company", { domain_cname: "dash2.northwind.example" });
      expect(changed.json().data.domainRecord.verified).toBe(false);
    });

    it("on a verified domain: the company's dashboards with its site title and no product name; nothing else", async () => {
      const owner = await agency("reports.brightside.example", { siteTitle: "Brightside Reports" });
      const logo = (
        await owner.client.apiMultipart(
          "POST",
          "/api/company",
          {},
          {
            logo: { filename: "logo.png", type: "image/png", data: PNG_1X1 },
          },
        )
      ).json().data.logo as string;
      const dashboard = await buildDashboard(env(), { company: owner.company, name: "Q3 Results" });
      const rival = await buildOwner(env());
      const rivalDashboard = await buildDashboard(env(), { company: rival.company, name: "Rival" });
      const rivalLogo = (
        await rival.client.apiMultipart(
          "POST",
          "/api/company",
          {},
          {
            logo: { filename: "logo.png", type: "image/png", data: PNG_1X1 },
          },
        )
      ).json().data.logo as string;

      const client = visitor(env(), "reports.brightside.example");
      const page = await client.send("GET", `/dashboards/${dashboard.permalink}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("<title>Q3 Results | Brightside Reports</title>");
      expect(page.body).not.toMatch(/reportz/i);
      const data = (await client.boot()).json();
      expect(data).toMatchObject({ siteTitle: "Brightside Reports", user: null, company: null });
      const shown = await client.send("GET", `/api/dashboards/${dashboard.permalink}`);
      expect(shown.statusCode).toBe(200);
      expect(shown.json().data).toMatchObject({ name: "Q3 Results", siteTitle: "Brightside Reports" });
      expect(shown.body).not.toMatch(/reportz/i);
      expect((await client.send("GET", `/dashboards/${dashboard.permalink}/embed`)).statusCode).toBe(200);
      expect((await client.send("GET", logo)).statusCode).toBe(200);

      // Everything else there is a 404: other companies, the product's pages and the signed-in API.
      for (const url of [
        `/dashboards/${rivalDashboard.permalink}`,
        `/api/dashboards/${rivalDashboard.permalink}`,
        rivalLogo,
        "/login",
        "/register",
        "/dashboards",
        "/",
        "/api/company",
        "/api/dashboards",
        "/api/health",
        "/api/docs",
      ]) {
        expect((await client.send("GET", url)).statusCode, url).toBe(404);
      }
      const login = await client.send("POST", "/login", { email: owner.email, password: owner.password });
      expect(login.statusCode).toBe(404);
      // An admin's session cookie sent to the custom domain does not sign anyone in there.
      const withSession = await owner.client.raw("GET", "/api/page-data", {
        headers: { host: "reports.brightside.example" },
      });
      expect(withSession.json()).toMatchObject({ user: null, siteTitle: "Brightside Reports" });
      // The same dashboard on the app's own host is served as before.
      const own = await visitor(env(), APP_HOST).send("GET", `/dashboards/${rivalDashboard.permalink}`);
      expect(own.statusCode).toBe(200);
    });

    it("without a site title the company's name stands in; widget data is served on its domain", async () => {
      const owner = await agency("kpi.plainco.example");
      const dashboard = await buildDashboard(env(), { company: owner.company, name: "Monthly" });
      const client = visitor(env(), "kpi.plainco.example");
      const page = await client.send("GET", `/dashboards/${dashboard.permalink}`);
      expect(page.body).toContain("<title>Monthly | Agency kpi.plainco.example</title>");
      expect(page.body).not.toMatch(/reportz/i);
      await client.boot();
      const widget = await client.send("POST", `/api/dashboards/${dashboard.permalink}/widgets/none/data`, {
        startDate: "2026-01-01",
        endDate: "2026-01-31",
      });
      // Reached the dashboards service (which knows no such widget), not refused by the host routing.
      expect(widget.statusCode).toBe(404);
      expect(widget.json().message).toBe("Widget not found.");
    });

    it("a dashboard's insights are served on its company's domain; another company's and other API paths are not", async () => {
      const owner = await agency("insights.lumen.example");
      // Demo widgets: their data, and so their insights, answer offline.
      const dashboard = await buildDashboard(env(), { company: owner.company, template: "website-overview" });
      const rival = await buildOwner(env());
      const rivalDashboard = await buildDashboard(env(), { company: rival.company, template: "website-overview" });
      const range = { startDate: "2026-01-01", endDate: "2026-01-31", timezone: "UTC" };
      const client = visitor(env(), "insights.lumen.example");
      await client.boot();
      const insights = await client.send("POST", `/api/dashboards/${dashboard.permalink}/insights`, range);
      expect(insights.statusCode, insights.body).toBe(200);
      expect(insights.json().data).toMatchObject({ widgets: expect.any(Object), summary: expect.any(Array) });

      // Each of these is answered on the app's own host (so the route exists), and is a 404 on the domain.
      const own = visitor(env(), APP_HOST);
      await own.boot();
      const refused: Array<["GET" | "POST", string, object?]> = [
        ["POST", `/api/dashboards/${rivalDashboard.permalink}/insights`, range],
        ["POST", `/api/dashboards/${dashboard.id}/clone`, {}],
        ["POST", "/api/widgets/data", { instances: [], ...range }],
        ["GET", "/api/sources"],
      ];
      for (const [method, url, body] of refused) {
        expect((await own.send(method, url, body)).statusCode, `${url} on the app's host`).not.toBe(404);
        const there = await client.send(method, url, body);
        expect(there.statusCode, url).toBe(404);
        expect(there.json()).toEqual({ code: "not_found", message: "Not found." });
      }
    });

    it("an unverified domain routes nothing; GET /api/domains/allowed says 200 only for verified ones", async () => {
      const pending = await agency("pending.agency.example", { verify: false });
      const dashboard = await buildDashboard(env(), { company: pending.company });
      const client = visitor(env(), "pending.agency.example");
      // Served as any unknown host is today (the product's own pages), not as the company's domain.
      expect((await client.send("GET", "/login")).statusCode).toBe(200);
      expect((await client.boot()).json().siteTitle).toBe("Reportz");
      expect((await client.send("GET", `/dashboards/${dashboard.permalink}`)).statusCode).toBe(200);

      await agency("live.agency.example");
      const ask = (domain: string) => env().client().raw("GET", `/api/domains/allowed?domain=${domain}`);
      expect((await ask("live.agency.example")).statusCode).toBe(200);
      expect((await ask("LIVE.agency.example")).json().data).toEqual({ domain: "live.agency.example" });
      expect((await ask("pending.agency.example")).statusCode).toBe(404);
      expect((await ask("unknown.example")).statusCode).toBe(404);
      expect((await ask(APP_HOST)).statusCode).toBe(404);
      // Verified later: the cached "no" is dropped at once.
      const pendingTarget = (await pending.client.api("GET", "/api/company")).json().data.domainRecord.value;
      (zone.cname as Record<string, string>)["pending.agency.example"] = pendingTarget;
      await pending.client.api("POST", "/api/company/domain/verify", {});
      expect((await ask("pending.agency.example")).statusCode).toBe(200);
      expect((await client.send("GET", "/login")).statusCode).toBe(404);
    });
  },
  async () => {
    // Each database's run starts with an empty zone (the same domains are used again).
    zone.cname = {};
    zone.txt = {};
    dns = await startDnsServer(zone);
    return { DNS_SERVERS: dns.server, APP_URL: `http://${APP_HOST}` };
  },
);
