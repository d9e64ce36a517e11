import { expect, it } from "vitest";
import {
  buildCompany,
  buildDashboard,
  buildMember,
  buildOwner,
  buildSource,
  buildUser,
  DEFAULT_PASSWORD,
  signIn,
} from "./factories";
import { describeEachDb } from "./harness";

// The factories stand in for registration in every other suite: what they build must be what the
// product itself would have made, or those suites would test a world the product never creates.
describeEachDb("row factories", (env) => {
  it("builds an owner the app sees as signed in, past the intro, in a trial company", async () => {
    const { client, user, company, email, password } = await buildOwner(env(), {
      company: { services_dashboards: 3 },
    });
    const page = await client.pageData();
    expect(page.user).toMatchObject({ id: user.id, email, roleName: "admin", introPassed: true });
    expect(page.company).toMatchObject({ id: company.id, state: "trial" });
    const shown = (await client.api("GET", "/api/company")).json().data;
    expect(shown).toMatchObject({ services: { dashboards: 3 }, dashboardsCount: 0, canCreateDashboard: true });
    // The built password is a real argon2 hash: login over HTTP accepts it.
    expect(password).toBe(DEFAULT_PASSWORD);
    expect((await env().client().login(email, password)).statusCode).toBe(200);
    expect((await env().client().login(email, "wrong-password")).statusCode).toBe(422);
  });

  it("builds members whose role the API enforces, and keeps companies apart", async () => {
    const owner = await buildOwner(env());
    const member = await buildMember(env(), { company: owner.company });
    expect((await member.client.pageData()).user).toMatchObject({ id: member.user.id, roleName: "user" });
    expect((await member.client.api("POST", "/api/users", { name: "X", email: "x@example.com" })).statusCode).toBe(403);
    const listed = (await owner.client.api("GET", "/api/users")).json().data.map((u: { id: string }) => u.id);
    expect(listed.sort()).toEqual([owner.user.id, member.user.id].sort());

    const other = await buildCompany(env(), { name: "Other Agency" });
    const stranger = await buildUser(env(), { company: other });
    const strangerClient = await signIn(env(), stranger);
    expect((await strangerClient.pageData()).company.name).toBe("Other Agency");
    expect((await strangerClient.api("GET", "/api/users")).json().data.map((u: { id: string }) => u.id)).toEqual([
      stranger.id,
    ]);
  });

  it("builds dashboards and sources the API then serves, counted against the plan", async () => {
    const owner = await buildOwner(env(), { company: { services_dashboards: 2 } });
    const source = await buildSource(env(), { company: owner.company, connector: "demo" });
    expect((await owner.client.api("GET", "/api/sources")).json().data).toEqual([source]);

    const fromTemplate = await buildDashboard(env(), {
      company: owner.company,
      user: owner.user,
      name: "Overview",
      template: "website-overview",
    });
    const shown = (await owner.client.api("GET", `/api/dashboards/${fromTemplate.permalink}`)).json().data;
    expect(shown).toMatchObject({ id: fromTemplate.id, name: "Overview" });
    // The template reuses the company's Demo source rather than connecting a second one.
    const interactive = shown.widgets.filter((w: { nature: string }) => w.nature === "interactive");
    expect(interactive.length).toBeGreaterThan(0);
    for (const widget of interactive) expect(widget.instances[0].sourceId).toBe(source.id);

    const locked = await buildDashboard(env(), { company: owner.company, password: "let-me-in" });
    const guest = env().client();
    expect((await guest.api("GET", `/api/dashboards/${locked.permalink}`)).statusCode).toBe(422);
    const opened = await guest.raw("GET", `/api/dashboards/${locked.permalink}`, {
      headers: { "x-authorization": "let-me-in" },
    });
    expect(opened.statusCode).toBe(200);

    // The plan's two dashboards are used: the service's allowance refuses a third, built or requested.
    await expect(buildDashboard(env(), { company: owner.company })).rejects.toThrow();
    expect((await owner.client.api("POST", "/api/dashboards", { name: "Third" })).statusCode).toBe(422);
  });
});
