import { PASSKEY_MESSAGES } from "@app/core";
import { describe, expect, it } from "vitest";
import { buildOwner, buildUser, signIn } from "../../../test/factories";
import { describeEachDb, startTestEnv, type TestClient, type TestEnv } from "../../../test/harness";
import { SoftAuthenticator } from "../../../test/webauthn-authenticator";
import { manualClock } from "../../infra/clock";
import { SESSION_COOKIE } from "../../infra/http";
import { totpCode } from "../two-factor/totp";
import { CHALLENGE_TTL_MS } from "./ceremony";

const XHR = { "x-requested-with": "XMLHttpRequest" };

/** Registers a passkey as the profile does: options, the authenticator's answer, its name. */
async function registerPasskey(client: TestClient, authenticator: SoftAuthenticator, name = "Work laptop") {
  const options = (await client.api("POST", "/api/passkeys/options", {})).json().data;
  const created = await client.api("POST", "/api/passkeys", { name, response: authenticator.register(options) });
  expect(created.statusCode).toBe(200);
  return created.json().data as { id: string; name: string; lastUsedAt: string | null };
}

async function signInOptions(client: TestClient) {
  const response = await client.raw("POST", "/passkey/login/options", { body: {}, headers: XHR });
  expect(response.statusCode).toBe(200);
  return response.json().data as { challenge: string; userVerification: string; allowCredentials?: unknown[] };
}

function passkeySignIn(client: TestClient, response: unknown) {
  return client.raw("POST", "/passkey/login", { body: { response }, headers: XHR });
}

const origin = (env: TestEnv) => new URL(env.ctx.config.appUrl).origin;

describeEachDb("passkeys (WebAuthn)", (env) => {
  it("a passkey registered on the profile signs in without a password, as POST /login does", async () => {
    const { client: owner, user, email } = await buildOwner(env());
    const authenticator = new SoftAuthenticator(origin(env()));
    const options = (await owner.api("POST", "/api/passkeys/options", {})).json().data;
    // The app's own host is the relying party; a discoverable credential and user verification are asked for.
    expect(options.rp.id).toBe(new URL(env().ctx.config.appUrl).hostname);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    expect(Buffer.from(options.user.id, "base64url").toString()).toBe(user.id);
    const created = await owner.api("POST", "/api/passkeys", {
      name: "  Work laptop ",
      response: authenticator.register(options),
    });
    expect(created.statusCode).toBe(200);
    expect(created.json().data).toMatchObject({ name: "Work laptop", transports: ["internal"], lastUsedAt: null });
    const listed = (await owner.api("GET", "/api/passkeys")).json().data;
    expect(listed.map((p: { name: string }) => p.name)).toEqual(["Work laptop"]);
    expect(JSON.stringify(listed)).not.toContain(authenticator.id);
    expect(
      env()
        .outbox()
        .some((mail) => mail.includes(email) && mail.includes('A passkey named "Work laptop" was added')),
    ).toBe(true);

    const browser = env().client();
    // A stale session cookie of this browser is replaced, as at POST /login.
    browser.setCookie(SESSION_COOKIE, "stale-token");
    const options2 = await signInOptions(browser);
    expect(options2.userVerification).toBe("required");
    expect(options2.allowCredentials ?? []).toEqual([]);
    const signedIn = await passkeySignIn(browser, authenticator.assert(options2));
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toEqual({ data: { redirect: "/dashboards" } });
    expect(browser.cookie(SESSION_COOKIE)).not.toBe("stale-token");
    const page = await browser.pageData();
    expect(page.user.email).toBe(email);
    expect((await browser.api("GET", "/api/company")).statusCode).toBe(200);
    const used = (await owner.api("GET", "/api/passkeys")).json().data[0];
    expect(used.lastUsedAt).not.toBeNull();
    expect(await env().services.get("passkeys").hasPasskey(user.id)).toBe(true);
  });

  it("a challenge is good once: a second answer to the same options, or a replayed assertion, is refused", async () => {
    const { client: owner } = await buildOwner(env());
    const authenticator = new SoftAuthenticator(origin(env()));
    const options = (await owner.api("POST", "/api/passkeys/options", {})).json().data;
    const answer = authenticator.register(options);
    expect((await owner.api("POST", "/api/passkeys", { name: "One", response: answer })).statusCode).toBe(200);
    const again = new SoftAuthenticator(origin(env()));
    const second = await owner.api("POST", "/api/passkeys", { name: "Two", response: again.register(options) });
    expect(second.statusCode).toBe(422);
    expect(second.json().errors.passkey).toEqual([PASSKEY_MESSAGES.refused]);

    const browser = env().client();
    const signInChallenge = await signInOptions(browser);
    const assertion = authenticator.assert(signInChallenge);
    expect((await passkeySignIn(browser, assertion)).statusCode).toBe(200);
    const replayed = await passkeySignIn(env().client(), assertion);
    expect(replayed.statusCode).toBe(422);
    // A fresh answer with a higher counter to the used challenge is refused too: the challenge is spent.
    expect((await passkeySignIn(env().client(), authenticator.assert(signInChallenge))).statusCode).toBe(422);
  });

  it("a challenge is good for five minutes", async () => {
    const { client: owner } = await buildOwner(env());
    const authenticator = new SoftAuthenticator(origin(env()));
    await registerPasskey(owner, authenticator);
    const ctx = env().ctx as TestEnv["ctx"] & { clock: ReturnType<typeof manualClock> };
    const clock = manualClock(new Date());
    const original = ctx.clock;
    ctx.clock = clock;
    try {
      const browser = env().client();
      const late = await signInOptions(browser);
      const inTime = await signInOptions(browser);
      clock.advance(CHALLENGE_TTL_MS - 1000);
      expect((await passkeySignIn(browser, authenticator.assert(inTime))).statusCode).toBe(200);
      clock.advance(2000);
      const expired = await passkeySignIn(env().client(), authenticator.assert(late));
      expect(expired.statusCode).toBe(422);
      expect(expired.json().errors.passkey).toEqual([PASSKEY_MESSAGES.refused]);
    } finally {
      ctx.clock = original;
    }
  });

  it("an answer made for another origin, or without user verification, is refused", async () => {
    const { client: owner } = await buildOwner(env());
    const authenticator = new SoftAuthenticator(origin(env()));
    const options = (await owner.api("POST", "/api/passkeys/options", {})).json().data;
    const phished = await owner.api("POST", "/api/passkeys", {
      name: "Phished",
      response: authenticator.register(options, { origin: "https://reportz.example.net" }),
    });
    expect(phished.statusCode).toBe(422);
    const unverified = await owner.api("POST", "/api/passkeys", {
      name: "No PIN",
      response: authenticator.register((await owner.api("POST", "/api/passkeys/options", {})).json().data, {
        uv: false,
      }),
    });
    expect(unverified.statusCode).toBe(422);
    expect((await owner.api("GET", "/api/passkeys")).json().data).toEqual([]);

    await registerPasskey(owner, authenticator);
    const browser = env().client();
    const wrongOrigin = await passkeySignIn(
      browser,
      authenticator.assert(await signInOptions(browser), { origin: "https://reportz.example.net" }),
    );
    expect(wrongOrigin.statusCode).toBe(422);
    expect(wrongOrigin.json().errors.passkey).toEqual([PASSKEY_MESSAGES.refused]);
    const noUv = await passkeySignIn(browser, authenticator.assert(await signInOptions(browser), { uv: false }));
    expect(noUv.statusCode).toBe(422);
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
  });

  it("a signature counter that goes back (a cloned authenticator) is refused", async () => {
    const { client: owner } = await buildOwner(env());
    const authenticator = new SoftAuthenticator(origin(env()), undefined, 10);
    await registerPasskey(owner, authenticator);
    const browser = env().client();
    expect((await passkeySignIn(browser, authenticator.assert(await signInOptions(browser)))).statusCode).toBe(200);
    const clone = await passkeySignIn(
      env().client(),
      authenticator.assert(await signInOptions(browser), { counter: 5 }),
    );
    expect(clone.statusCode).toBe(422);
    const same = await passkeySignIn(
      env().client(),
      authenticator.assert(await signInOptions(browser), { counter: 11 }),
    );
    expect(same.statusCode).toBe(422);
    expect(
      (await passkeySignIn(browser, authenticator.assert(await signInOptions(browser), { counter: 12 }))).statusCode,
    ).toBe(200);
  });

  it("removing a passkey asks for the password, mails the user, and the passkey no longer signs in", async () => {
    const { client: owner, email, password } = await buildOwner(env());
    const authenticator = new SoftAuthenticator(origin(env()));
    const passkey = await registerPasskey(owner, authenticator, "Phone");
    const missing = await owner.api("DELETE", `/api/passkeys/${passkey.id}`, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.password).toEqual([PASSKEY_MESSAGES.passwordRequired]);
    const wrong = await owner.api("DELETE", `/api/passkeys/${passkey.id}`, { password: "not-the-password" });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.password).toEqual([PASSKEY_MESSAGES.passwordWrong]);
    // Someone else's passkey is not found, whatever password they know.
    const { client: stranger, password: strangerPassword } = await buildOwner(env());
    expect(
      (await stranger.api("DELETE", `/api/passkeys/${passkey.id}`, { password: strangerPassword })).statusCode,
    ).toBe(404);
    expect((await stranger.api("PUT", `/api/passkeys/${passkey.id}`, { name: "Mine" })).statusCode).toBe(404);

    expect((await owner.api("DELETE", `/api/passkeys/${passkey.id}`, { password })).statusCode).toBe(204);
    expect((await owner.api("GET", `/api/passkeys`)).json().data).toEqual([]);
    expect(
      env()
        .outbox()
        .some((mail) => mail.includes(email) && mail.includes('The passkey named "Phone" was removed')),
    ).toBe(true);
    const browser = env().client();
    const after = await passkeySignIn(browser, authenticator.assert(await signInOptions(browser)));
    expect(after.statusCode).toBe(422);
    expect(after.json().errors.passkey).toEqual([PASSKEY_MESSAGES.unknown]);
  });

  it("with a passkey registered, the password opens a second step that only the user's own passkey completes", async () => {
    const { client: owner, email, password } = await buildOwner(env());
    const authenticator = new SoftAuthenticator(origin(env()));
    await registerPasskey(owner, authenticator, "Phone");
    const { client: stranger } = await buildOwner(env());
    const strangersKey = new SoftAuthenticator(origin(env()));
    await registerPasskey(stranger, strangersKey, "Theirs");

    const browser = env().client();
    const first = await browser.raw("POST", "/login", { body: { email, password }, headers: XHR });
    expect(first.json()).toEqual({ data: { redirect: "/login/two-factor" } });
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
    const options = (await browser.raw("POST", "/login/two-factor/passkey/options", { body: {}, headers: XHR })).json()
      .data;
    // Only the pending user's passkeys may answer.
    expect(options.allowCredentials).toEqual([expect.objectContaining({ id: authenticator.id })]);
    // Another user's passkey, answering these options, does not complete this sign-in.
    const foreign = await browser.raw("POST", "/login/two-factor/passkey", {
      body: { response: strangersKey.assert(options) },
      headers: XHR,
    });
    expect(foreign.statusCode).toBe(422);
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
    const options2 = (await browser.raw("POST", "/login/two-factor/passkey/options", { body: {}, headers: XHR })).json()
      .data;
    const done = await browser.raw("POST", "/login/two-factor/passkey", {
      body: { response: authenticator.assert(options2) },
      headers: XHR,
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ data: { redirect: "/dashboards" } });
    expect((await browser.pageData()).user.email).toBe(email);
    // The pending sign-in is spent: its options are refused now.
    const spent = await browser.raw("POST", "/login/two-factor/passkey/options", { body: {}, headers: XHR });
    expect(spent.statusCode).toBe(422);
  });

  it("adding and removing a passkey are in the audit log by the name given; a passkey meets the company's two-factor rule", async () => {
    const { client: owner, email, password, company } = await buildOwner(env());
    const authenticator = new SoftAuthenticator(origin(env()));
    // Without a second factor the admin may not require one; a passkey is one.
    expect((await owner.api("PUT", "/api/company/two-factor", { required: true })).statusCode).toBe(422);
    const passkey = await registerPasskey(owner, authenticator, "Desk key");
    expect((await owner.api("PUT", "/api/company/two-factor", { required: true })).statusCode).toBe(200);
    const status = (await owner.api("GET", "/api/two-factor")).json().data;
    // The authenticator app is still the user's to set up: the passkey is not it.
    expect(status).toMatchObject({ enabled: false, companyRequires: true, setupRequired: false });
    expect((await owner.api("POST", "/api/two-factor/setup", {})).statusCode).toBe(200);
    expect((await owner.api("PUT", "/api/company/two-factor", { required: false })).statusCode).toBe(200);
    expect((await owner.api("DELETE", `/api/passkeys/${passkey.id}`, { password })).statusCode).toBe(204);
    const rows = await env()
      .ctx.db.selectFrom("audit_events")
      .selectAll()
      .where("company_id", "=", company.id)
      .where("action", "like", "passkey.%")
      .orderBy("id")
      .execute();
    expect(rows.map((row) => [row.action, row.actor_email, row.target_label])).toEqual([
      ["passkey.added", email, "Desk key"],
      ["passkey.removed", email, "Desk key"],
    ]);
    expect(JSON.stringify(rows)).not.toContain(authenticator.id);
  });

  it("while the company requires two-factor, the answer is kept with the cached session and dropped when a factor changes", async () => {
    const { client: owner, password } = await buildOwner(env());
    const authenticator = new SoftAuthenticator(origin(env()));
    const first = await registerPasskey(owner, authenticator, "Desk key");
    await registerPasskey(owner, new SoftAuthenticator(origin(env())), "Spare key");
    expect((await owner.api("PUT", "/api/company/two-factor", { required: true })).statusCode).toBe(200);
    expect((await owner.api("GET", "/api/dashboards")).statusCode).toBe(200);
    // Taken away behind the app's back (nobody told the session caches): the answer is the session's, no
    // query asks again, so the member is still let through.
    const db = env().ctx.db;
    const spare = await db.selectFrom("passkeys").selectAll().where("name", "=", "Spare key").executeTakeFirstOrThrow();
    await db.deleteFrom("passkeys").where("id", "=", spare.id).execute();
    await db.deleteFrom("passkeys").where("id", "=", first.id).execute();
    expect((await owner.api("GET", "/api/dashboards")).statusCode).toBe(200);
    // What another process's change publishes: every cached session goes, and the database is asked again.
    await env().ctx.events.publish("session.revoked", {});
    expect((await owner.api("GET", "/api/dashboards")).statusCode).toBe(403);
    await db.insertInto("passkeys").values(spare).execute();
    await env().ctx.events.publish("session.revoked", {});
    expect((await owner.api("GET", "/api/dashboards")).statusCode).toBe(200);

    // Removing the last passkey through the app drops the cached answer by itself.
    expect((await owner.api("DELETE", `/api/passkeys/${spare.id}`, { password })).statusCode).toBe(204);
    const held = await owner.api("GET", "/api/dashboards");
    expect(held.statusCode).toBe(403);
    expect(held.json().code).toBe("two_factor_required");
  });

  it("a passkey-only user gets recovery codes with their first passkey: shown once, each signs in once, regenerable, gone with the last passkey", async () => {
    const { client: owner, email, password } = await buildOwner(env());
    const options = (await owner.api("POST", "/api/passkeys/options", {})).json().data;
    const authenticator = new SoftAuthenticator(origin(env()));
    const first = await owner.api("POST", "/api/passkeys", {
      name: "Desk key",
      response: authenticator.register(options),
    });
    expect(first.statusCode).toBe(200);
    const codes: string[] = first.json().data.recoveryCodes;
    expect(codes).toHaveLength(10);
    // Shown once: a second passkey brings none, and the list never shows them.
    const second = await registerPasskey(owner, new SoftAuthenticator(origin(env())), "Spare key");
    expect(second).not.toHaveProperty("recoveryCodes");
    expect(JSON.stringify((await owner.api("GET", "/api/passkeys")).json())).not.toContain(codes[0]);
    expect((await owner.api("GET", "/api/two-factor")).json().data).toMatchObject({
      enabled: false,
      recoveryCodesLeft: 10,
    });
    const stored = await env().ctx.db.selectFrom("user_recovery_codes").select("code_hash").execute();
    expect(JSON.stringify(stored)).not.toContain(codes[0].replace("-", ""));

    // The second step takes a recovery code once, as for an authenticator's user.
    const browser = env().client();
    expect((await browser.raw("POST", "/login", { body: { email, password }, headers: XHR })).json()).toEqual({
      data: { redirect: "/login/two-factor" },
    });
    const used = await browser.raw("POST", "/login/two-factor", { body: { code: codes[0] }, headers: XHR });
    expect(used.statusCode, used.body).toBe(200);
    const again = env().client();
    await again.raw("POST", "/login", { body: { email, password }, headers: XHR });
    expect((await again.raw("POST", "/login/two-factor", { body: { code: codes[0] }, headers: XHR })).statusCode).toBe(
      422,
    );

    // Regenerated with the password: the old ones are refused.
    const fresh = await owner.api("POST", "/api/two-factor/recovery-codes", { password });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json().data.recoveryCodes).toHaveLength(10);
    expect((await again.raw("POST", "/login/two-factor", { body: { code: codes[1] }, headers: XHR })).statusCode).toBe(
      422,
    );

    // The last passkey removed: no second factor, and no recovery codes left behind.
    for (const passkey of (await owner.api("GET", "/api/passkeys")).json().data) {
      expect((await owner.api("DELETE", `/api/passkeys/${passkey.id}`, { password })).statusCode).toBe(204);
    }
    expect((await owner.api("GET", "/api/two-factor")).json().data).toMatchObject({ recoveryCodesLeft: 0 });
  });

  it("an authenticator's user gets no second set with a passkey; turning the app off keeps the codes for the passkey", async () => {
    const { client: owner, password } = await buildOwner(env());
    const setup = (await owner.api("POST", "/api/two-factor/setup", {})).json().data;
    const enabled = await owner.api("POST", "/api/two-factor/enable", { code: totpCode(setup.secret, new Date()) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const options = (await owner.api("POST", "/api/passkeys/options", {})).json().data;
    const added = await owner.api("POST", "/api/passkeys", {
      name: "Desk key",
      response: new SoftAuthenticator(origin(env())).register(options),
    });
    expect(added.json().data).not.toHaveProperty("recoveryCodes");
    const off = await owner.api("POST", "/api/two-factor/disable", { password });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data).toMatchObject({ enabled: false, recoveryCodesLeft: 10 });
  });

  it("renames a passkey; a name is required and at most 60 characters", async () => {
    const { client: owner } = await buildOwner(env());
    const passkey = await registerPasskey(owner, new SoftAuthenticator(origin(env())));
    const renamed = await owner.api("PUT", `/api/passkeys/${passkey.id}`, { name: "YubiKey 5" });
    expect(renamed.json().data.name).toBe("YubiKey 5");
    const empty = await owner.api("PUT", `/api/passkeys/${passkey.id}`, { name: "  " });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.name).toEqual(["The name field is required."]);
    const long = await owner.api("PUT", `/api/passkeys/${passkey.id}`, { name: "x".repeat(61) });
    expect(long.json().errors.name).toEqual(["The name may not be greater than 60 characters."]);
    const garbage = await owner.api("POST", "/api/passkeys", { name: "Bad", response: { id: "%%%" } });
    expect(garbage.statusCode).toBe(422);
  });

  it("a known user's assertion (verifyForUser) confirms a removal, for an account without a password", async () => {
    const { company } = await buildOwner(env());
    const social = await buildUser(env(), { company, password: null, email: `social-${Date.now()}@example.com` });
    const client = await signIn(env(), social);
    const phone = new SoftAuthenticator(origin(env()));
    const laptop = new SoftAuthenticator(origin(env()));
    const first = await registerPasskey(client, phone, "Phone");
    await registerPasskey(client, laptop, "Laptop");
    const options = (await client.api("POST", "/api/passkeys/verify/options", {})).json().data;
    // Only this user's passkeys may answer.
    expect(options.allowCredentials.map((c: { id: string }) => c.id).sort()).toEqual([phone.id, laptop.id].sort());
    const stranger = new SoftAuthenticator(origin(env()));
    const { client: other } = await buildOwner(env());
    await registerPasskey(other, stranger);
    const foreign = await client.api("DELETE", `/api/passkeys/${first.id}`, { response: stranger.assert(options) });
    expect(foreign.statusCode).toBe(422);
    const fresh = (await client.api("POST", "/api/passkeys/verify/options", {})).json().data;
    // A sign-in challenge is not a verification challenge, and the reverse.
    const signInChallenge = await signInOptions(env().client());
    expect(
      (await client.api("DELETE", `/api/passkeys/${first.id}`, { response: laptop.assert(signInChallenge) }))
        .statusCode,
    ).toBe(422);
    expect(
      (await client.api("DELETE", `/api/passkeys/${first.id}`, { response: laptop.assert(fresh) })).statusCode,
    ).toBe(204);
    const service = env().services.get("passkeys");
    expect(await service.hasPasskey(social.id)).toBe(true);
    // The service function a second sign-in step calls.
    const known = await service.optionsForUser(social);
    await expect(service.verifyForUser(social.id, laptop.assert(known) as never)).resolves.toBeUndefined();
    await expect(service.verifyForUser(social.id, laptop.assert(known) as never)).rejects.toMatchObject({
      code: "validation",
    });
  });
});

describe("passkey sign-in and rate limits", () => {
  it("counts in POST /login's per-address window: passkey attempts and password attempts share one limit", async () => {
    const env = await startTestEnv("sqlite", { RATE_LIMIT_AUTH_MAX: "3" });
    try {
      const client = env.client();
      const options = (await client.raw("POST", "/passkey/login/options", { body: {}, headers: XHR })).json().data;
      const stranger = new SoftAuthenticator(new URL(env.ctx.config.appUrl).origin);
      const statuses = [
        (await client.login("nobody@example.com", "whatever-pass")).statusCode,
        (await passkeySignIn(client, stranger.assert(options))).statusCode,
        (await client.login("nobody@example.com", "whatever-pass")).statusCode,
        (await passkeySignIn(client, stranger.assert(options))).statusCode,
        (await client.login("nobody@example.com", "whatever-pass")).statusCode,
      ];
      expect(statuses).toEqual([422, 422, 422, 429, 429]);
    } finally {
      await env.close();
    }
  });
});
