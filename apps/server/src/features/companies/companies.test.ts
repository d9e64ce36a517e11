import { expect, it } from "vitest";
import { buildMember, buildOwner } from "../../../test/factories";
import { describeEachDb, PNG_1X1 } from "../../../test/harness";

describeEachDb("company API", (env) => {
  it("GET /api/company returns the session's company with derived flags", async () => {
    const { client: owner, company } = await buildOwner(env());
    const response = await owner.api("GET", "/api/company");
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      id: company.id,
      state: "trial",
      hasSubscription: false,
      isTrialWithoutSubscription: true,
      canCreateDashboard: true,
      dashboardsCount: 0,
    });
  });

  it("POST /api/company updates settings from form data, with a logo checked by content", async () => {
    const { client: owner } = await buildOwner(env());
    const response = await owner.apiMultipart(
      "POST",
      "/api/company",
      { name: "Acme Agency", domain: "acme.example", phone: "+1 555 0100", site_title: "Acme Reports" },
      { logo: { filename: "logo.png", type: "image/png", data: PNG_1X1 } },
    );
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({
      name: "Acme Agency",
      domain: "acme.example",
      phone: "+1 555 0100",
      siteTitle: "Acme Reports",
    });
    expect(data.logo).toMatch(/^\/files\/.+\.png$/);
    const file = await owner.raw("GET", data.logo);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect((await owner.pageData()).siteTitle).toBe("Acme Reports");
  });

  it("refuses a logo that is not an image, and an invalid domain, saving nothing", async () => {
    const { client: owner } = await buildOwner(env());
    await owner.api("POST", "/api/company", { name: "Kept Name" });
    const badLogo = await owner.apiMultipart(
      "POST",
      "/api/company",
      { name: "Changed" },
      { logo: { filename: "logo.png", type: "image/png", data: Buffer.from("not an image at all") } },
    );
    expect(badLogo.statusCode).toBe(422);
    expect(badLogo.json().errors).toEqual({ logo: ["Invalid file type"] });
    const badDomain = await owner.api("POST", "/api/company", { domain: "not a domain", name: "" });
    expect(badDomain.statusCode).toBe(422);
    expect(Object.keys(badDomain.json().errors).sort()).toEqual(["domain", "name"]);
    expect((await owner.api("GET", "/api/company")).json().data.name).toBe("Kept Name");
  });

  it("a multipart body of files alone is refused on DELETE /api/company, never taken as a cancellation", async () => {
    const { client: owner } = await buildOwner(env());
    const response = await owner.apiMultipart(
      "DELETE",
      "/api/company",
      {},
      {
        stray: { filename: "x.txt", type: "text/plain", data: Buffer.from("x") },
      },
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ stray: ["The stray field is not allowed."] });
    expect((await owner.api("GET", "/api/company")).json().data.state).toBe("trial");
  });

  it("non-admins may read but not change the company (403)", async () => {
    const { client: owner, company } = await buildOwner(env());
    const { client: member } = await buildMember(env(), { company });
    expect((await member.api("GET", "/api/company")).statusCode).toBe(200);
    expect((await member.api("POST", "/api/company", { name: "Hijacked" })).statusCode).toBe(403);
    expect((await member.api("DELETE", "/api/company", { delete: true })).statusCode).toBe(403);
    expect((await owner.api("GET", "/api/company")).json().data.name).not.toBe("Hijacked");
  });

  it("DELETE without the delete flag cancels the subscription and returns the company", async () => {
    const { client: owner } = await buildOwner(env());
    const response = await owner.api("DELETE", "/api/company", {
      delete: false,
      cancellation: { reason: "Too expensive" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.state).toBe("canceled");
  });

  it("DELETE with the delete flag removes the company and its users; nothing is returned", async () => {
    const { client: owner, email, password } = await buildOwner(env());
    const response = await owner.api("DELETE", "/api/company", { delete: true });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe("");
    expect((await env().client().login(email, password)).statusCode).toBe(422);
  });
});
