import { expect, it } from "vitest";
import { buildMember, buildOwner } from "../../../test/factories";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { SESSION_COOKIE } from "../../infra/http";
import { mailFromAddress } from "../../infra/mail";
import { EMAIL_UNUSABLE, MAX_EMAIL_CHANGES_PER_WINDOW, MAX_INVITATIONS_PER_WINDOW } from "./service";

/** The named header's lines in a mail's header block, unfolded (RFC 5322: a fold is a line break alone). */
function headerLines(mail: string, name: string): string[] {
  const head = mail.split(/\r?\n\r?\n/)[0].replace(/\r?\n(?=[ \t])/g, "");
  return head.split(/\r?\n/).filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`));
}

async function signedIn(client: TestClient): Promise<boolean> {
  return (await client.api("GET", "/api/company")).statusCode === 200;
}

describeEachDb("account security", (env) => {
  it("a new password ends the user's other sessions, cached ones included, but not the current one", async () => {
    const { client: here, email, password, user } = await buildOwner(env());
    const laptop = env().client();
    const phone = env().client();
    expect((await laptop.login(email, password)).statusCode).toBe(200);
    expect((await phone.login(email, password)).statusCode).toBe(200);
    // Fresh requests put every session in the in-process session cache.
    for (const client of [here, laptop, phone]) expect(await signedIn(client)).toBe(true);

    const changed = await here.api("PUT", `/api/users/${user.id}`, { password: "a-new-secret-1" });
    expect(changed.statusCode).toBe(200);
    expect(await signedIn(here)).toBe(true);
    expect(await signedIn(laptop)).toBe(false);
    expect(await signedIn(phone)).toBe(false);
    expect((await env().client().login(email, password)).statusCode).toBe(422);
    expect((await env().client().login(email, "a-new-secret-1")).statusCode).toBe(200);

    // A profile change without credentials ends nobody's session.
    const other = env().client();
    expect((await other.login(email, "a-new-secret-1")).statusCode).toBe(200);
    await here.api("PUT", `/api/users/${user.id}`, { name: "Olivia Renamed", timezone: "Europe/Paris" });
    expect(await signedIn(other)).toBe(true);
  });

  it("a new e-mail ends the user's other sessions; an admin changing a member's e-mail ends all of theirs", async () => {
    const { client: here, email, password, user, company } = await buildOwner(env());
    const elsewhere = env().client();
    await elsewhere.login(email, password);
    expect(await signedIn(elsewhere)).toBe(true);
    const newEmail = `moved-${Date.now()}@example.com`;
    expect((await here.api("PUT", `/api/users/${user.id}`, { email: newEmail })).statusCode).toBe(200);
    expect(await signedIn(here)).toBe(true);
    expect(await signedIn(elsewhere)).toBe(false);

    const { client: member } = await buildMember(env(), { company });
    const memberId = (await member.pageData()).user.id;
    expect(await signedIn(member)).toBe(true);
    const renamed = await here.api("PUT", `/api/users/${memberId}`, {
      email: `member-moved-${Date.now()}@example.com`,
    });
    expect(renamed.statusCode).toBe(200);
    expect(await signedIn(member)).toBe(false);
    expect(await signedIn(here)).toBe(true);
  });

  it("inviting another company's address answers like a new invitation, creates no user and sends no link", async () => {
    const { client: alpha, email: alphaEmail } = await buildOwner(env(), { user: { name: "Alpha Admin" } });
    const { client: beta } = await buildOwner(env(), { user: { name: "Bea Boss" } });
    await beta.api("POST", "/api/company", { name: "Beta Agency" });

    const fresh = await beta.api("POST", "/api/users", { name: "New Person", email: `new-${Date.now()}@example.com` });
    const probe = await beta.api("POST", "/api/users", { name: "New Person", email: alphaEmail });
    expect(probe.statusCode).toBe(fresh.statusCode);
    expect(probe.statusCode).toBe(200);
    const shape = (body: Record<string, unknown>) => ({ ...body, id: "", email: "" });
    expect(shape(probe.json().data)).toEqual(shape(fresh.json().data));
    expect(probe.json().data.email).toBe(alphaEmail);
    expect(Object.keys(probe.headers).sort()).toEqual(Object.keys(fresh.headers).sort());

    // No user was made in beta, alpha's admin is untouched and still signs in.
    const team = (await beta.api("GET", "/api/users")).json().data.map((u: { email: string }) => u.email);
    expect(team).not.toContain(alphaEmail);
    expect(await signedIn(alpha)).toBe(true);
    const alphaUsers = (await alpha.api("GET", "/api/users")).json().data;
    expect(alphaUsers).toHaveLength(1);
    // The address's owner gets a neutral notice without a link to follow.
    const mails = env()
      .outbox()
      .filter((m) => m.includes(`To: ${alphaEmail}`));
    expect(mails).toHaveLength(1);
    expect(mails[0]).not.toContain("/password/set/");
    expect(mails[0]).toContain("Bea Boss of Beta Agency");
  });

  it("invitations are limited per company: 429 beyond the window's allowance", async () => {
    const { client: owner } = await buildOwner(env());
    const statuses: number[] = [];
    for (let i = 0; i <= MAX_INVITATIONS_PER_WINDOW; i += 1) {
      const response = await owner.api("POST", "/api/users", {
        name: `P${i}`,
        email: `bulk-${i}-${Date.now()}@example.com`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, MAX_INVITATIONS_PER_WINDOW).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another company has its own allowance.
    const { client: other } = await buildOwner(env());
    expect(
      (await other.api("POST", "/api/users", { name: "Q", email: `q-${Date.now()}@example.com` })).statusCode,
    ).toBe(200);
  });

  it("a new e-mail in use anywhere gets one answer that tells no company apart, and changes nothing", async () => {
    const { client: alpha, email: alphaEmail } = await buildOwner(env());
    const { client: beta, user: betaAdmin, email: betaEmail, company: betaCompany } = await buildOwner(env());
    const { client: colleague } = await buildMember(env(), { company: betaCompany });
    const colleagueUser = (await colleague.pageData()).user;

    const elsewhere = await beta.api("PUT", `/api/users/${betaAdmin.id}`, { email: alphaEmail.toUpperCase() });
    const sameCompany = await beta.api("PUT", `/api/users/${betaAdmin.id}`, { email: colleagueUser.email });
    for (const answer of [elsewhere, sameCompany]) {
      expect(answer.statusCode).toBe(422);
      expect(answer.json()).toEqual({
        code: "validation",
        message: "The given data was invalid.",
        errors: { email: [EMAIL_UNUSABLE] },
      });
    }
    expect(elsewhere.body).toBe(sameCompany.body);
    expect(Object.keys(elsewhere.headers).sort()).toEqual(Object.keys(sameCompany.headers).sort());
    // An admin changing a member's address gets the same answer.
    const forMember = await beta.api("PUT", `/api/users/${colleagueUser.id}`, { email: alphaEmail });
    expect(forMember.json().errors.email).toEqual([EMAIL_UNUSABLE]);

    // Nothing changed: both accounts keep their addresses and sign in.
    expect((await beta.api("GET", `/api/users/${betaAdmin.id}`)).json().data.email).toBe(betaEmail);
    expect(await signedIn(alpha)).toBe(true);
    expect(await signedIn(beta)).toBe(true);
    // Saving one's own current address (any case) is no change and always fine.
    const unchanged = await beta.api("PUT", `/api/users/${betaAdmin.id}`, { email: betaEmail.toUpperCase() });
    expect(unchanged.statusCode).toBe(200);
  });

  it("e-mail changes are limited per acting user: 429 beyond the window's allowance, others unaffected", async () => {
    const { client: prober, user } = await buildOwner(env());
    const { client: victim, email: victimEmail } = await buildOwner(env());
    const statuses: number[] = [];
    for (let i = 0; i < MAX_EMAIL_CHANGES_PER_WINDOW; i += 1) {
      // Taken and free addresses alike use up the allowance: each answer says whether one is in use.
      const email = i % 2 === 0 ? victimEmail : `probe-${i}-${Date.now()}@example.com`;
      statuses.push((await prober.api("PUT", `/api/users/${user.id}`, { email })).statusCode);
    }
    expect(statuses).toEqual(Array.from({ length: MAX_EMAIL_CHANGES_PER_WINDOW }, (_, i) => (i % 2 === 0 ? 422 : 200)));
    const limited = await prober.api("PUT", `/api/users/${user.id}`, { email: `late-${Date.now()}@example.com` });
    expect(limited.statusCode).toBe(429);
    expect((await prober.api("PUT", `/api/users/${user.id}`, { email: victimEmail })).statusCode).toBe(429);
    // Other profile changes still work, and another user has their own allowance.
    expect((await prober.api("PUT", `/api/users/${user.id}`, { name: "Still Me" })).statusCode).toBe(200);
    const victimId = (await victim.pageData()).user.id;
    expect(
      (await victim.api("PUT", `/api/users/${victimId}`, { email: `moved-${Date.now()}@example.com` })).statusCode,
    ).toBe(200);
  });

  it("the invitation e-mail names the inviter, their company and the company's site title", async () => {
    const { client: owner } = await buildOwner(env(), { user: { name: "Olga Owner" } });
    await owner.api("POST", "/api/company", { name: "Acme Agency", site_title: "Acme Reports" });
    const email = `white-${Date.now()}@example.com`;
    expect((await owner.api("POST", "/api/users", { name: "Ivy", email })).statusCode).toBe(200);
    const mail = String(
      env()
        .outbox()
        .find((m) => m.includes(`To: ${email}`)),
    );
    expect(mail).toMatch(/Subject: Olga Owner invited you to join Acme Agency on Acme Reports/);
    expect(mail).toContain("Olga Owner of Acme Agency invited you to join their team on Acme Reports.");
    expect(mail).toContain("/password/set/");
    // From: the company's name with the configured address; the product's name appears nowhere.
    expect(headerLines(mail, "From")).toEqual([`From: Acme Agency <${mailFromAddress(env().ctx.config.mailFrom)}>`]);
    expect(mail).not.toContain(env().ctx.config.siteTitle);
  });

  it("a company name cannot forge mail headers: quoted, one line, the configured address", async () => {
    const { client: owner } = await buildOwner(env());
    const forged = 'Evil "Co" <boss@evil.example>\r\nBcc: victim@evil.example\nX-Spoof: 1';
    expect((await owner.api("POST", "/api/company", { name: forged })).statusCode).toBe(200);
    const email = `quoted-${Date.now()}@example.com`;
    expect((await owner.api("POST", "/api/users", { name: "Ivy", email })).statusCode).toBe(200);
    const mail = String(
      env()
        .outbox()
        .find((m) => m.includes(`To: ${email}`)),
    );
    const address = mailFromAddress(env().ctx.config.mailFrom);
    expect(headerLines(mail, "From")).toEqual([
      `From: "Evil \\"Co\\" <boss@evil.example> Bcc: victim@evil.example X-Spoof: 1" <${address}>`,
    ]);
    expect(headerLines(mail, "Bcc")).toEqual([]);
    expect(headerLines(mail, "X-Spoof")).toEqual([]);
    expect(headerLines(mail, "Reply-To")).toEqual([]);

    // Non-ASCII names travel as an encoded word, still with the configured address.
    await owner.api("POST", "/api/company", { name: "Agence Éclair" });
    const second = `accent-${Date.now()}@example.com`;
    await owner.api("POST", "/api/users", { name: "Zoé", email: second });
    const accented = String(
      env()
        .outbox()
        .find((m) => m.includes(`To: ${second}`)),
    );
    expect(headerLines(accented, "From")).toEqual([
      expect.stringMatching(new RegExp(`^From: =\\?UTF-8\\?.+\\?= <${address.replace(/\./g, "\\.")}>$`)),
    ]);
  });
});

describeEachDb(
  "cookies over https",
  (env) => {
    it("session and guest cookies are Secure when APP_URL is https", async () => {
      const client = env().client();
      const guest = await client.raw("GET", "/api/page-data");
      expect(String(guest.headers["set-cookie"])).toMatch(/guest=[^;]+;.*Secure/);
      const { response } = await client.register();
      const session = response.cookies.find((c) => c.name === SESSION_COOKIE);
      expect(session?.secure).toBe(true);
      expect(String(response.headers["set-cookie"])).toMatch(/session=[^;]+;.*Secure/);
    });
  },
  { APP_URL: "https://reports.example.com" },
);
