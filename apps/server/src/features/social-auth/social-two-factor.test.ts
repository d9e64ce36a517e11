import { TWO_FACTOR_LOGIN_PATH } from "@app/core";
import { afterAll, afterEach, beforeEach, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { oidcFake } from "../../../test/fakes/oidc";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import type { Clock } from "../../infra/clock";
import { manualClock } from "../../infra/clock";
import { totpCode } from "../two-factor/totp";

/**
 * Social sign-in of a user with a second factor (docs/product.md, "Two-factor sign-in"): the provider's
 * word replaces our second step only when its ID token's `amr` names "mfa"; otherwise the callback opens
 * a pending sign-in and the browser goes to the second step, as after a password.
 */
const fakes = fakesForFile(afterAll, () => ({
  google: oidcFake("google"),
  linkedin: oidcFake("linkedin", { pkce: false }),
}));

const STEP_MS = 30_000;
const XHR = { "x-requested-with": "XMLHttpRequest" };
let counter = 0;
const unique = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}`;

/** The page's POST, the provider's consent page (the fake answers at once), then our callback. */
async function socialSignIn(client: TestClient, provider: "google" | "linkedin") {
  const started = await client.raw("POST", `/login/${provider}`, { headers: XHR });
  expect(started.statusCode, started.body).toBe(200);
  const answer = await fetch(new URL(started.json().data.redirect), { redirect: "manual" });
  expect(answer.status).toBe(302);
  const back = new URL(answer.headers.get("location") as string);
  return client.raw("GET", `${back.pathname}${back.search}`);
}

describeEachDb(
  "social sign-in of a user with a second factor",
  (env) => {
    let clock: ReturnType<typeof manualClock>;
    let realClock: Clock;
    beforeEach(() => {
      // The middle of a time step, so the code computed "now" is that step's only code.
      clock = manualClock(new Date(Math.floor(Date.now() / STEP_MS) * STEP_MS + STEP_MS / 2));
      realClock = env().ctx.clock;
      (env().ctx as TestEnv["ctx"] & { clock: Clock }).clock = clock;
    });
    afterEach(() => {
      (env().ctx as TestEnv["ctx"] & { clock: Clock }).clock = realClock;
    });

    /** A member with TOTP on, whose Google and LinkedIn accounts carry the same verified address. */
    async function memberWithTotp() {
      const owner = await buildOwner(env(), { user: { email: `${unique("mfa")}@agency.example` } });
      const setup = (await owner.client.api("POST", "/api/two-factor/setup", {})).json().data;
      const enabled = await owner.client.api("POST", "/api/two-factor/enable", {
        code: totpCode(setup.secret, clock.now()),
      });
      expect(enabled.statusCode, enabled.body).toBe(200);
      clock.advance(STEP_MS); // the confirming code is spent
      const { google, linkedin } = (await fakes.current()).parts;
      for (const fake of [google, linkedin]) {
        fake.profile = { sub: unique("sub"), email: owner.email, email_verified: true, name: "Olivia Owner" };
      }
      return { owner, secret: String(setup.secret), google, linkedin };
    }

    it("without `amr: mfa` from the provider, the callback leads to the second step and a code completes it", async () => {
      const { owner, secret, google } = await memberWithTotp();
      for (const amr of [undefined, ["pwd"], ["pwd", "otp"]]) {
        google.profile = { ...google.profile, amr };
        const browser = env().client();
        const callback = await socialSignIn(browser, "google");
        expect(callback.statusCode, String(amr)).toBe(302);
        expect(callback.headers.location).toBe(TWO_FACTOR_LOGIN_PATH);
        // Not signed in yet: the app's pages are still closed.
        expect((await browser.pageData()).user).toBeNull();
        expect((await browser.api("GET", "/api/two-factor")).statusCode).toBe(401);

        const done = await browser.raw("POST", "/login/two-factor", {
          body: { code: totpCode(secret, clock.now()) },
          headers: XHR,
        });
        expect(done.statusCode, done.body).toBe(200);
        expect((await browser.pageData()).user.id).toBe(owner.user.id);
        clock.advance(STEP_MS); // the next round needs a fresh code
      }
    });

    it("with `amr` naming mfa (Google, LinkedIn), the provider's second factor is enough: signed in at once", async () => {
      const { owner, google, linkedin } = await memberWithTotp();
      for (const [provider, fake] of [
        ["google", google],
        ["linkedin", linkedin],
      ] as const) {
        fake.profile = { ...fake.profile, amr: ["pwd", "mfa"] };
        const browser = env().client();
        const callback = await socialSignIn(browser, provider);
        expect(callback.statusCode, provider).toBe(302);
        expect(callback.headers.location).toBe("/dashboards");
        expect((await browser.pageData()).user.id).toBe(owner.user.id);
        // No pending sign-in was opened: the second step has nothing to complete.
        const stray = await browser.raw("POST", "/login/two-factor", { body: { code: "000000" }, headers: XHR });
        expect(stray.statusCode).toBe(422);
      }
    });
  },
  fakes.env,
);
