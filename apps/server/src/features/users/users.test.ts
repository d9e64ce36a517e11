import { expect, it } from "vitest";
import { buildMember, buildOwner } from "../../../test/factories";
import { describeEachDb } from "../../../test/harness";

describeEachDb("team API", (env) => {
  it("an admin invites a user: the invitation e-mail links to a password page; the user signs in as non-admin", async () => {
    const { client: owner } = await buildOwner(env());
    const email = `invitee-${Date.now()}@example.com`;
    const invited = await owner.api("POST", "/api/users", { name: "Ivan Invitee", email, roleName: "user" });
    expect(invited.statusCode).toBe(200);
    expect(invited.json().data).toMatchObject({ email, roleName: "user", active: false, creator: false });
    const mail = env()
      .outbox()
      .find((m) => m.includes(`To: ${email}`));
    expect(mail).toContain("/password/set/");
    const token = /\/password\/set\/([A-Za-z0-9_-]+)/.exec(String(mail))?.[1];

    const invitee = env().client();
    const short = await invitee.raw("POST", "/password/set", {
      body: { token, password: "short", password_confirmation: "short" },
      headers: { "x-requested-with": "XMLHttpRequest" },
    });
    expect(short.statusCode).toBe(422);
    const set = await invitee.raw("POST", "/password/set", {
      body: { token, password: "invitee-pass-1", password_confirmation: "invitee-pass-1" },
      headers: { "x-requested-with": "XMLHttpRequest" },
    });
    expect(set.statusCode).toBe(200);
    const page = await invitee.pageData();
    expect(page.user).toMatchObject({ email, roleName: "user", termsConsent: false });
    // The link works once.
    const reuse = await env()
      .client()
      .raw("POST", "/password/set", {
        body: { token, password: "another-pass-1", password_confirmation: "another-pass-1" },
        headers: { "x-requested-with": "XMLHttpRequest" },
      });
    expect(reuse.statusCode).toBe(422);
    expect((await env().client().login(email, "invitee-pass-1")).statusCode).toBe(200);
  });

  it("lists the company's users for admins only", async () => {
    const { client: owner, company } = await buildOwner(env());
    const { client: member } = await buildMember(env(), { company });
    const list = await owner.api("GET", "/api/users");
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toHaveLength(2);
    expect((await member.api("GET", "/api/users")).statusCode).toBe(403);
    expect((await member.api("POST", "/api/users", { name: "X", email: "x@example.com" })).statusCode).toBe(403);
  });

  it("validates invitations with per-field errors", async () => {
    const { client: owner, email } = await buildOwner(env());
    const bad = await owner.api("POST", "/api/users", { name: "", email: "nope", roleName: "boss" });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(["email", "name", "roleName"]);
    const taken = await owner.api("POST", "/api/users", { name: "Dup", email });
    expect(taken.json().errors.email).toEqual(["The email has already been taken."]);
  });

  it("a user updates their own profile but not their role; an admin changes roles", async () => {
    const { client: owner, user: ownerUser, company } = await buildOwner(env());
    const { client: member } = await buildMember(env(), { company });
    const me = (await member.pageData()).user;
    const renamed = await member.api("PUT", `/api/users/${me.id}`, { name: "Mia Renamed", timezone: "Europe/Berlin" });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data).toMatchObject({ name: "Mia Renamed", timezone: "Europe/Berlin" });
    expect((await member.api("PUT", `/api/users/${me.id}`, { roleName: "admin" })).statusCode).toBe(403);
    expect((await member.api("PUT", `/api/users/${ownerUser.id}`, { name: "Nope" })).statusCode).toBe(403);
    const promoted = await owner.api("PUT", `/api/users/${me.id}`, { roleName: "admin" });
    expect(promoted.json().data.roleName).toBe("admin");
    expect((await member.api("GET", "/api/users")).statusCode).toBe(200);
  });

  it("the last admin cannot be demoted; an admin cannot delete themselves", async () => {
    const { client: owner, user } = await buildOwner(env());
    const demote = await owner.api("PUT", `/api/users/${user.id}`, { roleName: "user" });
    expect(demote.statusCode).toBe(422);
    expect(demote.json().errors.roleName).toBeDefined();
    expect((await owner.api("DELETE", `/api/users/${user.id}`)).statusCode).toBe(422);
  });

  it("an admin deletes a member, whose session stops working", async () => {
    const { client: owner, company } = await buildOwner(env());
    const { client: member } = await buildMember(env(), { company });
    const me = (await member.pageData()).user;
    expect((await member.api("DELETE", `/api/users/${me.id}`)).statusCode).toBe(403);
    expect((await owner.api("DELETE", `/api/users/${me.id}`)).statusCode).toBe(204);
    expect((await member.api("GET", "/api/company")).statusCode).toBe(401);
  });

  it("submit other data: intro passed and onboarding step never goes back", async () => {
    const owner = env().client();
    await owner.register();
    expect((await owner.pageData()).user.introPassed).toBe(false);
    await owner.api("POST", "/api/user/data", { intro_passed: true, onboarding: 3 });
    await owner.api("POST", "/api/user/data", { onboarding: 1 });
    const page = await owner.pageData();
    expect(page.user.introPassed).toBe(true);
    expect(page.onboarding).toEqual({ flow: "dashboard", step: 3, source: null, forcedFlow: null });
  });
});

describeEachDb("tenant isolation", (env) => {
  it("a user of another company gets 403/404 and no data from every route", async () => {
    const {
      client: alpha,
      user: alphaAdmin,
      company: alphaCompany,
    } = await buildOwner(env(), { user: { name: "Alpha Admin" } });
    await alpha.api("POST", "/api/company", { name: "Alpha Co" });
    const { client: alphaMember } = await buildMember(env(), { company: alphaCompany });
    const alphaMemberId = (await alphaMember.pageData()).user.id;

    const { client: beta } = await buildOwner(env(), { user: { name: "Beta Admin" } });

    // Company: beta only ever sees its own.
    const company = await beta.api("GET", "/api/company");
    expect(company.json().data.name).not.toBe("Alpha Co");
    // Users list holds only beta's user.
    const list = await beta.api("GET", "/api/users");
    expect(list.json().data.map((u: { email: string }) => u.email)).not.toContain(alphaAdmin.email);
    // Alpha's users by id: not found for beta, whatever the verb.
    for (const id of [alphaAdmin.id, alphaMemberId]) {
      const get = await beta.api("GET", `/api/users/${id}`);
      expect(get.statusCode).toBe(404);
      expect(get.body).not.toContain(alphaAdmin.email);
      expect((await beta.api("PUT", `/api/users/${id}`, { name: "Taken Over" })).statusCode).toBe(404);
      expect((await beta.api("DELETE", `/api/users/${id}`)).statusCode).toBe(404);
    }
    // Beta deleting its own company leaves alpha intact.
    expect((await beta.api("DELETE", "/api/company", { delete: true })).statusCode).toBe(204);
    expect((await alpha.api("GET", "/api/company")).json().data.name).toBe("Alpha Co");
    expect((await alpha.api("GET", "/api/users")).json().data).toHaveLength(2);
  });
});
