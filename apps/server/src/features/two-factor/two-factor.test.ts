import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildMember, buildOwner } from "../../../test/factories";
import { describeEachDb, TestClient, type TestEnv } from "../../../test/harness";
import { SoftAuthenticator } from "../../../test/webauthn-authenticator";
import { buildApp } from "../../app";
import type { AppContext, Infra } from "../../context";
import { createInfra } from "../../infra";
import { manualClock } from "../../infra/clock";
import { loadConfig } from "../../infra/config";
import type { App } from "../../infra/http";
import { seal } from "../../infra/security";
import { runTwoFactorResetCli } from "../../seed/two-factor-reset";
import { totpCode } from "./totp";

const STEP_MS = 30_000;
const XHR = { "x-requested-with": "XMLHttpRequest" };

/** The middle of a time step, so a code computed "now" is the code of exactly one step. */
function midStep(): Date {
  return new Date(Math.floor(Date.now() / STEP_MS) * STEP_MS + STEP_MS / 2);
}

type Clock = ReturnType<typeof manualClock>;

function useManualClock(env: () => TestEnv): () => Clock {
  let clock: Clock;
  beforeEach(() => {
    clock = manualClock(midStep());
    (env().ctx as TestEnv["ctx"] & { clock: Clock }).clock = clock;
  });
  return () => clock;
}

/** Turns TOTP on from the profile's API as the web app does; answers the secret and the recovery codes. */
async function enableTotp(client: TestClient, clock: Clock) {
  const setup = await client.api("POST", "/api/two-factor/setup", {});
  expect(setup.statusCode).toBe(200);
  const { secret, uri, qr } = setup.json().data;
  const enabled = await client.api("POST", "/api/two-factor/enable", { code: totpCode(secret, clock.now()) });
  expect(enabled.statusCode).toBe(200);
  // The code that confirmed the set-up is spent: the next sign-in needs a later one.
  clock.advance(STEP_MS);
  return { secret: String(secret), uri: String(uri), qr: String(qr), recoveryCodes: enabled.json().data.recoveryCodes };
}

/** Password first: answers the login response (a pending sign-in when the user has a second factor). */
function passwordStep(client: TestClient, email: string, password: string) {
  return client.raw("POST", "/login", { body: { email, password }, headers: XHR });
}

function secondStep(client: TestClient, code: string) {
  return client.raw("POST", "/login/two-factor", { body: { code }, headers: XHR });
}

describeEachDb("two-factor sign-in with TOTP", (env) => {
  const clock = useManualClock(env);

  it("set-up shows the secret once as text, otpauth address and QR code; on only after a current code", async () => {
    const { client, email } = await buildOwner(env());
    const setup = (await client.api("POST", "/api/two-factor/setup", {})).json().data;
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.uri).toBe(
      `otpauth://totp/Reportz:${encodeURIComponent(email)}?issuer=Reportz&secret=${setup.secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(setup.qr).toMatch(/^data:image\/png;base64,/);
    // Not on yet: the status says so, and a wrong code does not turn it on.
    expect((await client.api("GET", "/api/two-factor")).json().data).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
      companyRequires: false,
      setupRequired: false,
    });
    const wrong = await client.api("POST", "/api/two-factor/enable", { code: "000000" });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code).toEqual(["The code is not valid, or it was already used."]);
    const right = await client.api("POST", "/api/two-factor/enable", { code: totpCode(setup.secret, clock().now()) });
    expect(right.statusCode).toBe(200);
    const codes: string[] = right.json().data.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[2-9a-z]{5}-[2-9a-z]{5}$/);
    expect((await client.api("GET", "/api/two-factor")).json().data).toMatchObject({
      enabled: true,
      recoveryCodesLeft: 10,
    });
    // Once on, a new set-up is refused (the secret is never shown again).
    expect((await client.api("POST", "/api/two-factor/setup", {})).statusCode).toBe(422);
  });

  it("the password alone opens a pending sign-in, not a session; a code from the secret completes it", async () => {
    const { client, email, password } = await buildOwner(env());
    const { secret } = await enableTotp(client, clock());
    const browser = env().client();
    const first = await passwordStep(browser, email, password);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ data: { redirect: "/login/two-factor" } });
    expect(first.cookies.find((c) => c.name === "session")).toBeUndefined();
    const pending = first.cookies.find((c) => c.name === "two_factor");
    expect(pending?.httpOnly).toBe(true);
    expect(pending?.sameSite).toBe("Lax");
    // Only the token's hash is stored.
    const rows = await env().ctx.db.selectFrom("pending_sign_ins").select("id").execute();
    expect(rows.map((r) => r.id)).not.toContain(pending?.value);
    expect((await browser.api("GET", "/api/company")).statusCode).toBe(401);

    const done = await secondStep(browser, totpCode(secret, clock().now()));
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ data: { redirect: "/dashboards" } });
    expect(done.cookies.find((c) => c.name === "session")?.value).toBeTruthy();
    await browser.pageData();
    expect((await browser.api("GET", "/api/company")).statusCode).toBe(200);
    // The pending sign-in is over: its cookie is cleared and it cannot be completed again.
    expect(browser.cookie("two_factor")).toBeUndefined();
  });

  it.each([
    [-2, 422],
    [-1, 200],
    [0, 200],
    [1, 200],
    [2, 422],
  ])("a code %i steps away from the server's clock: %i (±1 step of skew, never more)", async (offset, status) => {
    const { client, email, password } = await buildOwner(env());
    const { secret } = await enableTotp(client, clock());
    // Well past the step that confirmed the set-up, so only the skew decides.
    clock().advance(20 * STEP_MS);
    const browser = env().client();
    await passwordStep(browser, email, password);
    const code = totpCode(secret, new Date(clock().now().getTime() + offset * STEP_MS));
    expect((await secondStep(browser, code)).statusCode).toBe(status);
  });

  it("a used code is refused the second time, also when two sign-ins race with it", async () => {
    const { client, email, password } = await buildOwner(env());
    const { secret } = await enableTotp(client, clock());
    const code = totpCode(secret, clock().now());
    const first = env().client();
    await passwordStep(first, email, password);
    expect((await secondStep(first, code)).statusCode).toBe(200);
    const again = env().client();
    await passwordStep(again, email, password);
    const replay = await secondStep(again, code);
    expect(replay.statusCode).toBe(422);
    expect(replay.json().errors.code).toEqual(["The code is not valid, or it was already used."]);

    // A new step's code sent by two browsers at once: exactly one signs in.
    clock().advance(STEP_MS);
    const racing = [env().client(), env().client()];
    for (const browser of racing) await passwordStep(browser, email, password);
    const fresh = totpCode(secret, clock().now());
    const statuses = (await Promise.all(racing.map((browser) => secondStep(browser, fresh)))).map((r) => r.statusCode);
    expect(statuses.sort()).toEqual([200, 422]);
  });

  it("a recovery code signs in once and is refused the second time", async () => {
    const { client, email, password } = await buildOwner(env());
    const { recoveryCodes } = await enableTotp(client, clock());
    const first = env().client();
    await passwordStep(first, email, password);
    // As people type them: upper case, without the dash.
    expect((await secondStep(first, recoveryCodes[0].replace("-", "").toUpperCase())).statusCode).toBe(200);
    const second = env().client();
    await passwordStep(second, email, password);
    expect((await secondStep(second, recoveryCodes[0])).statusCode).toBe(422);
    expect((await secondStep(second, recoveryCodes[1])).statusCode).toBe(200);
    expect((await client.api("GET", "/api/two-factor")).json().data.recoveryCodesLeft).toBe(8);
  });

  it("recovery codes and the secret are never stored in clear", async () => {
    const { client, user } = await buildOwner(env());
    const { secret, recoveryCodes } = await enableTotp(client, clock());
    const codes = await env()
      .ctx.db.selectFrom("user_recovery_codes")
      .selectAll()
      .where("user_id", "=", user.id)
      .execute();
    expect(codes).toHaveLength(10);
    const stored = JSON.stringify(codes);
    for (const code of recoveryCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace("-", ""));
    }
    for (const row of codes) expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    const factor = await env()
      .ctx.db.selectFrom("user_two_factor")
      .selectAll()
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(factor.secret_sealed).not.toContain(secret);
    expect(factor.enabled_at).not.toBeNull();
  });

  it("a secret sealed under another APP_KEY refuses its codes with a 422, not a server error", async () => {
    const { client, email, password, user } = await buildOwner(env());
    const { secret } = await enableTotp(client, clock());
    await env()
      .ctx.db.updateTable("user_two_factor")
      .set({ secret_sealed: seal("another-app-key", secret) })
      .where("user_id", "=", user.id)
      .execute();
    const browser = env().client();
    await passwordStep(browser, email, password);
    expect((await secondStep(browser, totpCode(secret, clock().now()))).statusCode).toBe(422);
  });

  it("a pending sign-in expires after ten minutes", async () => {
    const { client, email, password } = await buildOwner(env());
    const { secret } = await enableTotp(client, clock());
    const browser = env().client();
    await passwordStep(browser, email, password);
    clock().advance(10 * 60_000 + 1000);
    const late = await secondStep(browser, totpCode(secret, clock().now()));
    expect(late.statusCode).toBe(422);
    expect(late.json().errors.code).toEqual(["Your sign-in has expired. Please sign in again."]);
    expect(late.cookies.find((c) => c.name === "session")).toBeUndefined();
  });

  it("the sweep job deletes expired pending sign-ins without waiting for another sign-in, and only those", async () => {
    const { client, email, password, user } = await buildOwner(env());
    await enableTotp(client, clock());
    const pendingOf = () =>
      env().ctx.db.selectFrom("pending_sign_ins").select("id").where("user_id", "=", user.id).execute();
    await passwordStep(env().client(), email, password);
    clock().advance(10 * 60_000 + 1000);
    await passwordStep(env().client(), email, password); // a fresh one, not expired
    expect(await pendingOf()).toHaveLength(2);
    const job = env().services.get("twoFactorSignIns").sweepJob();
    expect(job.name).toBe("two-factor.pending-sweep");
    expect(job.schedule).toEqual({ everyMs: 15 * 60_000 });
    await job.handle({}, { jobId: "test", attempt: 1, signal: new AbortController().signal });
    expect(await pendingOf()).toHaveLength(1);
    clock().advance(10 * 60_000 + 1000);
    await job.handle({}, { jobId: "test", attempt: 1, signal: new AbortController().signal });
    expect(await pendingOf()).toHaveLength(0);
  });

  it("five wrong codes end the pending sign-in; the password is asked again", async () => {
    const { client, email, password } = await buildOwner(env());
    const { secret } = await enableTotp(client, clock());
    const browser = env().client();
    await passwordStep(browser, email, password);
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) answers.push((await secondStep(browser, "111111")).json().errors.code[0]);
    expect(answers.at(-1)).toBe("Too many wrong codes. Please sign in again.");
    const right = await secondStep(browser, totpCode(secret, clock().now()));
    expect(right.json().errors.code).toEqual(["Your sign-in has expired. Please sign in again."]);
  });

  it("the second step is a 422 per field on bad input, and refuses a browser without a pending sign-in", async () => {
    const browser = env().client();
    const empty = await secondStep(browser, "");
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.code).toEqual(["The code field is required."]);
    const extra = await browser.raw("POST", "/login/two-factor", {
      body: { code: "123456", remember: "1" },
      headers: XHR,
    });
    expect(extra.statusCode).toBe(422);
    expect(Object.keys(extra.json().errors)).toEqual(["remember"]);
    const none = await secondStep(browser, "123456");
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.code).toEqual(["Your sign-in has expired. Please sign in again."]);
  });

  it("users without two-factor sign in with the password alone, as before", async () => {
    const { email, password } = await buildOwner(env());
    const browser = env().client();
    const response = await passwordStep(browser, email, password);
    expect(response.json()).toEqual({ data: { redirect: "/dashboards" } });
    expect(response.cookies.find((c) => c.name === "session")?.value).toBeTruthy();
  });
});

describeEachDb("two-factor changes: asked again, mailed, other sessions ended", (env) => {
  const clock = useManualClock(env);

  /** A user with TOTP on, signed in in two browsers (`here` makes the changes, `there` is another session). */
  async function twoBrowsers() {
    const owner = await buildOwner(env());
    const factor = await enableTotp(owner.client, clock());
    const there = env().client();
    await passwordStep(there, owner.email, owner.password);
    await secondStep(there, totpCode(factor.secret, clock().now()));
    clock().advance(STEP_MS);
    await there.pageData();
    expect((await there.api("GET", "/api/company")).statusCode).toBe(200);
    return { ...owner, ...factor, here: owner.client, there };
  }

  const mailsTo = (email: string) =>
    env()
      .outbox()
      .filter((mail) => mail.includes(email));

  it("turning on mails the user and ends their other sessions, keeping this one", async () => {
    const owner = await buildOwner(env());
    const other = await buildOwner(env());
    const elsewhere = env().client();
    await passwordStep(elsewhere, owner.email, owner.password);
    await elsewhere.pageData();
    expect((await elsewhere.api("GET", "/api/company")).statusCode).toBe(200);
    await enableTotp(owner.client, clock());
    expect((await elsewhere.api("GET", "/api/company")).statusCode).toBe(401);
    expect((await owner.client.api("GET", "/api/company")).statusCode).toBe(200);
    const mails = mailsTo(owner.email);
    expect(mails.some((mail) => mail.includes("Two-factor sign-in is now on"))).toBe(true);
    expect(mailsTo(other.email)).toEqual([]);
  });

  it("turning off asks for the password or a current code again (422 per field), then mails and ends the others", async () => {
    const { here, there, email, secret } = await twoBrowsers();
    const nothing = await here.api("POST", "/api/two-factor/disable", {});
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json().errors.password).toEqual(["Enter your password or a current code."]);
    const wrongPassword = await here.api("POST", "/api/two-factor/disable", { password: "not-my-password" });
    expect(wrongPassword.json().errors.password).toEqual(["The password is incorrect."]);
    const wrongCode = await here.api("POST", "/api/two-factor/disable", { code: "000000" });
    expect(wrongCode.json().errors.code).toEqual(["The code is not valid, or it was already used."]);
    expect((await there.api("GET", "/api/company")).statusCode).toBe(200);

    const off = await here.api("POST", "/api/two-factor/disable", { code: totpCode(secret, clock().now()) });
    expect(off.statusCode).toBe(200);
    expect(off.json().data.enabled).toBe(false);
    expect((await there.api("GET", "/api/company")).statusCode).toBe(401);
    expect((await here.api("GET", "/api/company")).statusCode).toBe(200);
    expect(mailsTo(email).some((mail) => mail.includes("Two-factor sign-in was turned off"))).toBe(true);
    // Off: the password alone signs in again.
    const browser = env().client();
    expect((await passwordStep(browser, email, "secret-pass-1")).json()).toEqual({ data: { redirect: "/dashboards" } });
  });

  it("regenerating recovery codes asks again, replaces all the old ones, mails and ends the others", async () => {
    const { here, there, email, password, recoveryCodes } = await twoBrowsers();
    expect((await here.api("POST", "/api/two-factor/recovery-codes", {})).statusCode).toBe(422);
    const fresh = await here.api("POST", "/api/two-factor/recovery-codes", { password });
    expect(fresh.statusCode).toBe(200);
    const codes: string[] = fresh.json().data.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(codes).not.toContain(recoveryCodes[0]);
    expect((await there.api("GET", "/api/company")).statusCode).toBe(401);
    expect((await here.api("GET", "/api/company")).statusCode).toBe(200);
    expect(mailsTo(email).some((mail) => mail.includes("New two-factor recovery codes"))).toBe(true);
    // The old codes no longer work; the new ones do.
    const browser = env().client();
    await passwordStep(browser, email, password);
    expect((await secondStep(browser, recoveryCodes[0])).statusCode).toBe(422);
    expect((await secondStep(browser, codes[0])).statusCode).toBe(200);
  });

  it("turning on, new recovery codes, the company's requirement and turning off are in the audit log, with no code or secret", async () => {
    const { client, company, email, password } = await buildOwner(env());
    const { secret, recoveryCodes } = await enableTotp(client, clock());
    const fresh = await client.api("POST", "/api/two-factor/recovery-codes", { password });
    expect(fresh.statusCode).toBe(200);
    expect((await client.api("PUT", "/api/company/two-factor", { required: true })).statusCode).toBe(200);
    expect((await client.api("PUT", "/api/company/two-factor", { required: false })).statusCode).toBe(200);
    expect((await client.api("POST", "/api/two-factor/disable", { password })).statusCode).toBe(200);
    const rows = await env()
      .ctx.db.selectFrom("audit_events")
      .selectAll()
      .where("company_id", "=", company.id)
      .where("action", "like", "two_factor.%")
      .orderBy("id")
      .execute();
    expect(rows.map((row) => [row.action, row.actor_email, JSON.parse(row.details)])).toEqual([
      ["two_factor.enabled", email, {}],
      ["two_factor.recovery_codes", email, {}],
      ["two_factor.company_required", email, { required: true }],
      ["two_factor.company_required", email, { required: false }],
      ["two_factor.disabled", email, {}],
    ]);
    const written = JSON.stringify(rows);
    for (const secretValue of [secret, password, ...recoveryCodes, ...fresh.json().data.recoveryCodes]) {
      expect(written).not.toContain(secretValue);
    }
  });

  it("no mail holds a secret or a code", async () => {
    const { here, email, password, secret, recoveryCodes } = await twoBrowsers();
    const fresh = (await here.api("POST", "/api/two-factor/recovery-codes", { password })).json().data.recoveryCodes;
    const text = mailsTo(email).join("\n");
    for (const value of [secret, ...recoveryCodes, ...fresh]) expect(text).not.toContain(value);
  });
});

describeEachDb("a company that requires two-factor", (env) => {
  const clock = useManualClock(env);

  it("only admins set it, and only once they have two-factor themselves", async () => {
    const { client: admin, company } = await buildOwner(env());
    const { client: member } = await buildMember(env(), { company });
    expect((await member.api("PUT", "/api/company/two-factor", { required: true })).statusCode).toBe(403);
    const bad = await admin.api("PUT", "/api/company/two-factor", { required: "yes" });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(["required"]);
    const first = await admin.api("PUT", "/api/company/two-factor", { required: true });
    expect(first.statusCode).toBe(422);
    expect(first.json().errors.required).toEqual(["Turn on two-factor sign-in for yourself first."]);
    await enableTotp(admin, clock());
    const done = await admin.api("PUT", "/api/company/two-factor", { required: true });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ data: { required: true } });
  });

  it("a member without it can do nothing but set it up, in a session already open and at the next sign-in", async () => {
    const { client: admin, company } = await buildOwner(env());
    const member = await buildMember(env(), { company });
    await enableTotp(admin, clock());
    expect((await admin.api("PUT", "/api/company/two-factor", { required: true })).statusCode).toBe(200);

    // The session open before: every other API call is a 403 saying why.
    const blocked = await member.client.api("GET", "/api/dashboards");
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({
      code: "two_factor_required",
      message:
        "Your company requires two-factor sign-in. Set it up on the two-factor set-up page before doing anything else.",
    });
    expect((await member.client.api("PUT", `/api/users/${member.user.id}`, { name: "X" })).statusCode).toBe(403);
    const page = await member.client.pageData();
    expect(page.session.twoFactorSetupRequired).toBe(true);
    expect((await member.client.api("GET", "/api/two-factor")).json().data).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
      companyRequires: true,
      setupRequired: true,
    });

    // A new sign-in: the password signs in (no second factor yet), and the same holds.
    const fresh = env().client();
    expect((await passwordStep(fresh, member.email, member.password)).statusCode).toBe(200);
    expect((await fresh.pageData()).session.twoFactorSetupRequired).toBe(true);
    expect((await fresh.api("GET", "/api/company")).statusCode).toBe(403);

    // Set up: everything opens again; the admin, who has it, was never held.
    await enableTotp(fresh, clock());
    expect((await fresh.api("GET", "/api/company")).statusCode).toBe(200);
    expect((await fresh.pageData()).session.twoFactorSetupRequired).toBe(false);
    expect((await admin.api("GET", "/api/dashboards")).statusCode).toBe(200);
    // While required, it cannot be turned off.
    const off = await fresh.api("POST", "/api/two-factor/disable", { password: member.password });
    expect(off.json().errors.general).toEqual([
      "Your company requires two-factor sign-in, so it cannot be turned off.",
    ]);
  });

  it("a member may meet it with a passkey as their first second factor", async () => {
    const { client: admin, company } = await buildOwner(env());
    const member = await buildMember(env(), { company });
    await enableTotp(admin, clock());
    expect((await admin.api("PUT", "/api/company/two-factor", { required: true })).statusCode).toBe(200);
    expect((await member.client.api("GET", "/api/dashboards")).statusCode).toBe(403);

    expect((await member.client.api("GET", "/api/passkeys")).json()).toEqual({ data: [] });
    const authenticator = new SoftAuthenticator(new URL(env().ctx.config.appUrl).origin);
    const options = await member.client.api("POST", "/api/passkeys/options", {});
    expect(options.statusCode).toBe(200);
    const created = await member.client.api("POST", "/api/passkeys", {
      name: "Phone",
      response: authenticator.register(options.json().data),
    });
    expect(created.statusCode).toBe(200);
    // The first factor of a user without an authenticator app comes with its recovery codes.
    expect(created.json().data.recoveryCodes).toHaveLength(10);

    // The requirement is met in the session already open: everything opens again.
    expect((await member.client.api("GET", "/api/dashboards")).statusCode).toBe(200);
    expect((await member.client.pageData()).session.twoFactorSetupRequired).toBe(false);
    expect((await member.client.api("GET", "/api/two-factor")).json().data).toMatchObject({ setupRequired: false });
  });

  it("before the requirement is met, a passkey can be neither renamed nor removed", async () => {
    const { client: admin, company } = await buildOwner(env());
    const member = await buildMember(env(), { company });
    await enableTotp(admin, clock());
    expect((await admin.api("PUT", "/api/company/two-factor", { required: true })).statusCode).toBe(200);
    for (const [method, url] of [
      ["PUT", "/api/passkeys/00000000-0000-0000-0000-000000000000"],
      ["DELETE", "/api/passkeys/00000000-0000-0000-0000-000000000000"],
    ] as const) {
      const answer = await member.client.api(method, url, { name: "X", password: member.password });
      expect(answer.statusCode).toBe(403);
      expect(answer.json().code).toBe("two_factor_required");
    }
  });
});

describeEachDb(
  "wrong codes count toward the password's shared limit",
  (env) => {
    const clock = useManualClock(env);

    it("POST /login and POST /login/two-factor share one count per address", async () => {
      const { client, email, password } = await buildOwner(env());
      const { secret } = await enableTotp(client, clock());
      const browser = env().client();
      const statuses: number[] = [];
      statuses.push((await passwordStep(browser, email, password)).statusCode);
      for (let i = 0; i < 3; i++) statuses.push((await secondStep(browser, "111111")).statusCode);
      // The fifth attempt is over the limit of 4, the right code or not; and so is the password.
      statuses.push((await secondStep(browser, totpCode(secret, clock().now()))).statusCode);
      statuses.push((await passwordStep(browser, email, password)).statusCode);
      expect(statuses).toEqual([200, 422, 422, 422, 429, 429]);
    });
  },
  { RATE_LIMIT_AUTH_MAX: "4" },
);

describeEachDb("the operator's reset (npm run two-factor:reset)", (env) => {
  const clock = useManualClock(env);

  it("removes every second factor (app, recovery codes, passkeys), ends every session and mails the user", async () => {
    const { client, email, password, user } = await buildOwner(env());
    await enableTotp(client, clock());
    // A passkey too: the lost device may hold it, and it would still be asked at the second step.
    const authenticator = new SoftAuthenticator(new URL(env().ctx.config.appUrl).origin);
    const options = (await client.api("POST", "/api/passkeys/options", {})).json().data;
    const added = await client.api("POST", "/api/passkeys", {
      name: "Lost phone",
      response: authenticator.register(options),
    });
    expect(added.statusCode).toBe(200);
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };
    expect(await runTwoFactorResetCli([], env().ctx, io)).toBe(2);
    expect(await runTwoFactorResetCli(["nobody@example.com"], env().ctx, io)).toBe(1);
    expect(await runTwoFactorResetCli([email.toUpperCase()], env().ctx, io)).toBe(0);
    expect(lines.at(-1)).toContain(`reset for ${email.toUpperCase()}`);
    expect((await client.api("GET", "/api/company")).statusCode).toBe(401);
    const left = await env()
      .ctx.db.selectFrom("user_recovery_codes")
      .select("code_hash")
      .where("user_id", "=", user.id)
      .execute();
    expect(left).toEqual([]);
    const passkeys = await env().ctx.db.selectFrom("passkeys").select("id").where("user_id", "=", user.id).execute();
    expect(passkeys).toEqual([]);
    expect(
      env()
        .outbox()
        .some(
          (mail) =>
            mail.includes(email) &&
            mail.includes("Two-factor sign-in was turned off") &&
            mail.includes("recovery codes and passkeys were removed"),
        ),
    ).toBe(true);
    // The password alone signs in again.
    const browser = env().client();
    expect((await passwordStep(browser, email, password)).json()).toEqual({ data: { redirect: "/dashboards" } });
  });
});

describe("secrets never reach the log", () => {
  const lines: string[] = [];
  let app: App;
  let infra: Infra;
  let dataDir: string;
  let ctx: AppContext & { clock: Clock };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-2fa-log-"));
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "trace", RATE_LIMIT_AUTH_MAX: "1000" });
    const logger = pino({ level: "trace" }, { write: (line: string) => lines.push(line) });
    infra = await createInfra(config, { logger, sqliteFile: "log.sqlite" });
    ctx = { ...infra, config, clock: manualClock(midStep()) };
    app = await buildApp(ctx, { webDist: path.join(dataDir, "no-web-dist") });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await infra.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("no secret, code, recovery code or pending token in any line, through set-up, sign-in and changes", async () => {
    // The factories read only the context and a client of this app.
    const env = { ctx, client: () => new TestClient(app) } as unknown as TestEnv;
    const { client, email, password } = await buildOwner(env);
    const { secret, recoveryCodes } = await enableTotp(client, ctx.clock);
    const browser = new TestClient(app);
    const first = await passwordStep(browser, email, password);
    const pendingToken = first.cookies.find((c) => c.name === "two_factor")?.value ?? "missing";
    const code = totpCode(secret, ctx.clock.now());
    await secondStep(browser, "999999");
    expect((await secondStep(browser, code)).statusCode).toBe(200);
    const again = new TestClient(app);
    await passwordStep(again, email, password);
    expect((await secondStep(again, recoveryCodes[0])).statusCode).toBe(200);
    const fresh = (await client.api("POST", "/api/two-factor/recovery-codes", { password })).json().data.recoveryCodes;
    expect(lines.length).toBeGreaterThan(5);
    const text = lines.join("\n");
    for (const value of [secret, code, pendingToken, password, ...recoveryCodes, ...fresh]) {
      expect(text).not.toContain(value);
      expect(text).not.toContain(value.replace("-", ""));
    }
  });
});
