import { BILLING_MESSAGES, COUPON_TEXTS, SOCIAL_PAYMENT_REQUIRED, socialAuthMessage } from "@app/core";
import { afterAll, describe, expect, it } from "vitest";
import { fakesForFile } from "../../../test/fakes/app";
import { facebookLoginFake } from "../../../test/fakes/facebook-login";
import { oidcFake } from "../../../test/fakes/oidc";
import { stripeFake } from "../../../test/fakes/stripe";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { paidCheckout as payCheckout } from "../../../test/stripe-webhook";
import { metaFake } from "../../connectors/meta/fake";
import { couponCatalogue } from "../coupons/catalogue";

const fakes = fakesForFile(afterAll, () => {
  const meta = metaFake();
  return {
    google: oidcFake("google"),
    linkedin: oidcFake("linkedin", { pkce: false }),
    meta,
    facebook: facebookLoginFake(meta.state),
  };
});

const CONSENTS = { terms_consent: true, age_consent: true };
const XHR = { "x-requested-with": "XMLHttpRequest" };
let counter = 0;
const unique = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}`;

/** Starts a sign-in as the page does; answers the provider's consent page address. */
async function start(client: TestClient, path: string, body?: Record<string, unknown>) {
  const response = await client.raw("POST", path, { body, headers: XHR });
  return response;
}

/**
 * The whole round trip as a browser makes it: the page's POST, the provider's consent page (which the
 * fakes answer at once with a redirect back to us), then our callback. Answers the callback's response.
 */
async function signIn(client: TestClient, path: string, body?: Record<string, unknown>) {
  const started = await start(client, path, body);
  expect(started.statusCode, started.body).toBe(200);
  const consent = new URL(started.json().data.redirect);
  const provider = await fetch(consent, { redirect: "manual" });
  expect(provider.status).toBe(302);
  const back = new URL(provider.headers.get("location") as string);
  const callback = await client.raw("GET", `${back.pathname}${back.search}`);
  return { consent, back, callback };
}

/** A fresh coupon code (codes are unique across the whole database). */
const freshCode = (prefix: string) => `${prefix}${++counter}${Date.now().toString(36)}`.toUpperCase();

const usersWithEmail = (env: TestEnv, email: string) =>
  env.ctx.db.selectFrom("users").selectAll().where("email", "=", email).execute();
const identitiesOf = (env: TestEnv, userId: string) =>
  env.ctx.db.selectFrom("user_identities").selectAll().where("user_id", "=", userId).execute();

describeEachDb(
  "social sign-up and login (Google, LinkedIn over OIDC; Facebook over OAuth 2)",
  (env) => {
    const parts = async () => (await fakes.current()).parts;

    it("a new account via Google: the company has the page's plan and flow, the user is signed in at /intro", async () => {
      const { google } = await parts();
      const email = `${unique("new")}@gmail.example`;
      google.profile = { sub: unique("g"), email, email_verified: true, name: "Grace Hopper" };
      const browser = env().client();
      const { consent, callback } = await signIn(browser, "/register/google", {
        ...CONSENTS,
        dashboards: 10,
        interval: 12,
        flow: "mc",
        timezone: "Europe/Berlin",
      });
      // PKCE and a nonce went to Google (its discovery advertises S256).
      expect(consent.searchParams.get("code_challenge_method")).toBe("S256");
      expect(consent.searchParams.get("nonce")).toBeTruthy();
      expect(consent.searchParams.get("scope")).toBe("openid email profile");
      expect(callback.statusCode).toBe(302);
      expect(callback.headers.location).toBe("/intro");
      const page = await browser.pageData();
      expect(page.user.email).toBe(email);
      expect(page.user.name).toBe("Grace Hopper");
      expect(page.company.services.dashboards).toBe(10);
      expect(page.onboarding).toMatchObject({ flow: "mc", step: 0 });
      // The browser's zone, kept through the provider's round trip, for the user and the company.
      expect(page.user.timezone).toBe("Europe/Berlin");
      expect(page.company.timezone).toBe("Europe/Berlin");
      const [user] = await usersWithEmail(env(), email);
      expect(user?.password_hash).toBeNull();
      expect(user?.terms_consent).toBe(1);
      expect(user?.age_consent).toBe(1);
      const company = await env()
        .ctx.db.selectFrom("companies")
        .select("subscription_interval")
        .where("id", "=", user?.company_id as string)
        .executeTakeFirstOrThrow();
      expect(company.subscription_interval).toBe(12);
      expect(await identitiesOf(env(), user?.id as string)).toMatchObject([
        { provider: "google", subject: google.profile.sub, email, email_verified: 1 },
      ]);
      // A password cannot sign in to an account without one.
      const password = await env().client().login(email, "");
      expect(password.statusCode).toBe(422);
    });

    it("signing in again with Google (login or register button) enters the same account, no second user", async () => {
      const { google } = await parts();
      const email = `${unique("again")}@gmail.example`;
      google.profile = { sub: unique("g"), email, email_verified: true, name: "Alan Turing" };
      const first = env().client();
      await signIn(first, "/register/google", CONSENTS);
      const firstPage = await first.pageData();

      const second = env().client();
      const { callback } = await signIn(second, "/login/google");
      // The intro is not passed yet: straight there (the guard would send the user there anyway).
      expect(callback.headers.location).toBe("/intro");
      expect((await second.pageData()).user.id).toBe(firstPage.user.id);
      expect((await second.api("POST", "/api/user/data", { intro_passed: true })).statusCode).toBe(200);
      const afterIntro = await signIn(env().client(), "/login/google");
      expect(afterIntro.callback.headers.location).toBe("/dashboards");

      const third = env().client();
      const again = await signIn(third, "/register/google", { ...CONSENTS, dashboards: 99 });
      expect(again.callback.headers.location).toBe("/dashboards");
      const thirdPage = await third.pageData();
      expect(thirdPage.user.id).toBe(firstPage.user.id);
      expect(thirdPage.company.services.dashboards).toBe(firstPage.company.services.dashboards);
      expect(await usersWithEmail(env(), email)).toHaveLength(1);
    });

    it("links to an existing password account with the same verified e-mail (no duplicate user)", async () => {
      const { google } = await parts();
      const owner = env().client();
      const { email, password } = await owner.register();
      const ownerPage = await owner.pageData();
      google.profile = { sub: unique("g"), email: email.toUpperCase(), email_verified: true, name: "Someone Else" };

      const browser = env().client();
      const { callback } = await signIn(browser, "/login/google");
      expect(callback.headers.location).toBe("/intro");
      const page = await browser.pageData();
      expect(page.user.id).toBe(ownerPage.user.id);
      expect(page.user.name).toBe(ownerPage.user.name);
      expect(await usersWithEmail(env(), email)).toHaveLength(1);
      expect(await identitiesOf(env(), ownerPage.user.id)).toMatchObject([{ provider: "google", email_verified: 1 }]);
      // The password still works.
      expect((await env().client().login(email, password)).statusCode).toBe(200);
    });

    it("an e-mail the provider does not vouch for is never linked to an existing account", async () => {
      const { google } = await parts();
      const owner = env().client();
      const { email } = await owner.register();
      const ownerPage = await owner.pageData();
      google.profile = { sub: unique("g"), email, email_verified: false, name: "Mallory" };

      const browser = env().client();
      const { callback } = await signIn(browser, "/register/google", CONSENTS);
      expect(callback.statusCode).toBe(302);
      const back = new URL(callback.headers.location as string, "http://app");
      expect(back.pathname).toBe("/register");
      expect(back.searchParams.get("social_error")).toBe("unverified_email");
      expect(socialAuthMessage(back.searchParams.get("social_error"), back.searchParams.get("provider"))).toContain(
        "Google does not confirm that the address is verified",
      );
      expect(browser.cookie("session")).toBeUndefined();
      expect((await browser.pageData()).user).toBeNull();
      expect(await identitiesOf(env(), ownerPage.user.id)).toEqual([]);
      expect(await usersWithEmail(env(), email)).toHaveLength(1);
    });

    it("a callback with another state, from another browser, or replayed signs nobody in", async () => {
      const { google } = await parts();
      google.profile = {
        sub: unique("g"),
        email: `${unique("state")}@gmail.example`,
        email_verified: true,
        name: "Eve",
      };
      const browser = env().client();
      const started = await start(browser, "/login/google");
      const provider = await fetch(started.json().data.redirect, { redirect: "manual" });
      const back = new URL(provider.headers.get("location") as string);

      // The state changed on the way.
      const forged = new URL(back);
      forged.searchParams.set("state", "not-the-state-we-sent");
      const wrong = await browser.raw("GET", `${forged.pathname}${forged.search}`);
      expect(wrong.headers.location).toBe("/login?social_error=expired&provider=google");

      // The right address opened in another browser (a link someone was sent): no state cookie there.
      const elsewhere = env().client();
      const stolen = await elsewhere.raw("GET", `${back.pathname}${back.search}`);
      expect(stolen.headers.location).toBe("/login?social_error=expired&provider=google");
      expect(elsewhere.cookie("session")).toBeUndefined();

      // The state was spent by those attempts: even the starting browser cannot use it now, nor twice.
      const late = await browser.raw("GET", `${back.pathname}${back.search}`);
      expect(late.headers.location).toBe("/login?social_error=expired&provider=google");

      // A successful callback replayed later is refused too.
      const owner = env().client();
      await owner.register({ email: google.profile.email as string });
      const fresh = env().client();
      const done = await signIn(fresh, "/login/google");
      expect(done.callback.headers.location).toBe("/intro");
      fresh.setCookie("social_state", done.back.searchParams.get("state") as string);
      const replay = await fresh.raw("GET", `${done.back.pathname}${done.back.search}`);
      expect(replay.headers.location).toBe("/login?social_error=expired&provider=google");
    });

    it("the age and terms checkboxes come first: 422 per field, and the provider is not asked", async () => {
      const { google } = await parts();
      const before = google.authorizations.length;
      const browser = env().client();
      const response = await start(browser, "/register/google", { dashboards: 5 });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({
        terms_consent: ["You must accept the terms and conditions."],
        age_consent: ["You must confirm that you are at least 16 years old."],
      });
      const unticked = await start(browser, "/register/google", { terms_consent: true, age_consent: false });
      expect(Object.keys(unticked.json().errors)).toEqual(["age_consent"]);
      const plan = await start(browser, "/register/google", { ...CONSENTS, dashboards: 0, interval: 3 });
      expect(plan.json().errors).toEqual({
        dashboards: ["The dashboards must be at least 1."],
        interval: ["The interval must be 1 or 12."],
      });
      expect(browser.cookie("social_state")).toBeUndefined();
      expect(google.authorizations.length).toBe(before);
    });

    it("the page's coupons apply to the new company; a refused code is a 422 on `coupon` before the provider is asked", async () => {
      const { google } = await parts();
      const catalogue = couponCatalogue(env().ctx.db);
      const bonus = await catalogue.add({ code: freshCode("BONUS"), type: "dashboards.bonus", value: 3 });
      const email = `${unique("coupon")}@gmail.example`;
      google.profile = { sub: unique("g"), email, email_verified: true, name: "Cora Pon" };
      const browser = env().client();
      const { callback } = await signIn(browser, "/register/google", {
        ...CONSENTS,
        dashboards: 4,
        coupons: [bonus.code.toLowerCase()],
      });
      expect(callback.headers.location).toBe("/intro");
      const page = await browser.pageData();
      expect(page.company.services).toEqual({ dashboards: 4, bonusDashboards: 3 });
      expect(page.company.coupons).toMatchObject([{ code: bonus.code, type: "dashboards.bonus" }]);

      // Unknown, expired, or twice: the form's words on `coupon`, no state cookie, the provider not asked.
      const expired = await catalogue.add({
        code: freshCode("OLD"),
        type: "price.discount",
        value: 5,
        expires: "2020-01-01",
      });
      const before = google.authorizations.length;
      const cases: Array<[unknown, string]> = [
        [["nope-no-such-code"], COUPON_TEXTS.invalid("nope-no-such-code")],
        [[expired.code], COUPON_TEXTS.invalid(expired.code)],
        [[bonus.code, bonus.code], COUPON_TEXTS.invalid(bonus.code)],
        // As the form posts them: a JSON list in a text field.
        [JSON.stringify([expired.code]), COUPON_TEXTS.invalid(expired.code)],
      ];
      for (const [coupons, message] of cases) {
        const refused = await start(browser, "/register/google", { ...CONSENTS, coupons });
        expect(refused.statusCode, String(coupons)).toBe(422);
        expect(refused.json().errors, String(coupons)).toEqual({ coupon: [message] });
      }
      const malformed = await start(browser, "/register/google", { ...CONSENTS, coupons: "not json" });
      expect(malformed.json().errors).toEqual({ coupon: ["The coupons must be a JSON list of codes."] });
      expect(google.authorizations.length).toBe(before);
      expect(browser.cookie("social_state")).toBeUndefined();
    });

    it("a coupon used up while the user was at the provider: back to /register with the reason, nothing created", async () => {
      const { google } = await parts();
      const last = await couponCatalogue(env().ctx.db).add({
        code: freshCode("LAST"),
        type: "dashboards.bonus",
        value: 2,
        max: 1,
      });
      const email = `${unique("late")}@gmail.example`;
      google.profile = { sub: unique("g"), email, email_verified: true, name: "Late Comer" };
      const browser = env().client();
      const started = await start(browser, "/register/google", { ...CONSENTS, coupons: [last.code] });
      expect(started.statusCode, started.body).toBe(200);
      // Meanwhile someone registers with the form and takes the code's one redemption.
      expect(
        (
          await env()
            .client()
            .register({ coupons: JSON.stringify([last.code]) })
        ).response.statusCode,
      ).toBe(200);
      const provider = await fetch(started.json().data.redirect, { redirect: "manual" });
      const back = new URL(provider.headers.get("location") as string);
      const callback = await browser.raw("GET", `${back.pathname}${back.search}`);
      expect(callback.headers.location).toBe("/register?social_error=coupon_refused&provider=google");
      expect(socialAuthMessage("coupon_refused", "google")).toContain("no account was created");
      expect(browser.cookie("session")).toBeUndefined();
      expect(await usersWithEmail(env(), email)).toEqual([]);
    });

    it("without card payments an order reference is refused: 422 on `order_ref`, the provider not asked", async () => {
      const response = await start(env().client(), "/register/google", {
        ...CONSENTS,
        order_ref: "cs_test_1",
        order_id: "x",
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({ order_ref: [BILLING_MESSAGES.paymentsOff] });
    });

    it("logging in with a provider account that has no user yet sends the person to register (nothing created)", async () => {
      const { google } = await parts();
      const email = `${unique("nobody")}@gmail.example`;
      google.profile = { sub: unique("g"), email, email_verified: true, name: "Nobody" };
      const { callback } = await signIn(env().client(), "/login/google");
      expect(callback.headers.location).toBe("/register?social_error=no_account&provider=google");
      expect(await usersWithEmail(env(), email)).toEqual([]);
    });

    it("LinkedIn: no PKCE or nonce (it supports neither), the ID token's e-mail creates the account", async () => {
      const { linkedin } = await parts();
      const email = `${unique("li")}@linkedin.example`;
      linkedin.profile = { sub: unique("li"), email, email_verified: true, name: "Lin Kedin" };
      const browser = env().client();
      const { consent, callback } = await signIn(browser, "/register/linkedin", { ...CONSENTS, flow: "dashboard" });
      expect(consent.searchParams.get("code_challenge")).toBeNull();
      expect(consent.searchParams.get("nonce")).toBeNull();
      expect(consent.searchParams.get("scope")).toBe("openid profile email");
      expect(linkedin.tokenRequests.at(-1)).toMatchObject({ client_secret: linkedin.clientSecret });
      expect(linkedin.tokenRequests.at(-1)?.code_verifier).toBeUndefined();
      expect(callback.headers.location).toBe("/intro");
      expect((await browser.pageData()).user.email).toBe(email);
    });

    it("Facebook: creates an account from Graph's e-mail, signs it in again, never links an existing one", async () => {
      const { meta } = await parts();
      const email = `${unique("fb")}@facebook.example`;
      meta.user = { id: unique("fbuser"), name: "Fay Book", email };
      const browser = env().client();
      const { consent, callback } = await signIn(browser, "/register/facebook", CONSENTS);
      expect(consent.pathname).toBe(`/${meta.graphVersion}/dialog/oauth`);
      expect(consent.searchParams.get("scope")).toBe("email,public_profile");
      expect(callback.headers.location).toBe("/intro");
      const page = await browser.pageData();
      expect(page.user).toMatchObject({ email, name: "Fay Book" });
      expect(await identitiesOf(env(), page.user.id)).toMatchObject([{ provider: "facebook", email_verified: 0 }]);

      const again = env().client();
      expect((await signIn(again, "/login/facebook")).callback.headers.location).toBe("/intro");
      expect((await again.pageData()).user.id).toBe(page.user.id);

      // Graph does not say whether an address is verified: an existing password account is not linked.
      const owner = env().client();
      const { email: ownerEmail } = await owner.register();
      meta.user = { id: unique("fbuser"), name: "Someone", email: ownerEmail };
      const refused = await signIn(env().client(), "/login/facebook");
      expect(refused.callback.headers.location).toBe("/login?social_error=unverified_email&provider=facebook");

      // The user did not share an e-mail.
      meta.user = { id: unique("fbuser"), name: "Private", email: null };
      const hidden = await signIn(env().client(), "/register/facebook", CONSENTS);
      expect(hidden.callback.headers.location).toBe("/register?social_error=no_email&provider=facebook");
    });

    it("the provider's refusal (the user cancelled) comes back to the page that started", async () => {
      const { meta } = await parts();
      meta.deny = true;
      const { callback } = await signIn(env().client(), "/register/facebook", CONSENTS);
      expect(callback.headers.location).toBe("/register?social_error=denied&provider=facebook");
    });

    it("page data lists the configured providers; an unknown one is 404", async () => {
      const page = await env().client().pageData();
      expect(page.config.socialProviders).toEqual(["google", "facebook", "linkedin"]);
      const unknown = await start(env().client(), "/register/twitter", CONSENTS);
      expect(unknown.statusCode).toBe(404);
    });
  },
  fakes.env,
);

describeEachDb("social sign-in without provider clients", (env) => {
  it("offers no provider, and starting one is 404 whatever the form says", async () => {
    const browser = env().client();
    expect((await browser.pageData()).config.socialProviders).toEqual([]);
    for (const path of ["/register/google", "/login/facebook", "/register/linkedin"]) {
      const response = await start(browser, path, CONSENTS);
      expect(response.statusCode, path).toBe(404);
    }
    const callback = await browser.raw("GET", "/auth/google/callback?code=x&state=y");
    expect(callback.statusCode).toBe(404);
  });
});

describeEachDb(
  "social sign-in when the provider cannot be reached",
  (env) => {
    it("answers 503 with the provider's name, keeps no state, and the next try asks again", async () => {
      const browser = env().client();
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await start(browser, "/register/google", CONSENTS);
        expect(response.statusCode).toBe(503);
        expect(response.json().message).toBe("Google cannot be reached right now. Please try again in a moment.");
      }
      expect(browser.cookie("social_state")).toBeUndefined();
    });
  },
  // Port 9 (discard) has no listener: discovery fails at once.
  {
    SOCIAL_GOOGLE_CLIENT_ID: "unreachable-client",
    SOCIAL_GOOGLE_CLIENT_SECRET: "unreachable-secret",
    SOCIAL_GOOGLE_ISSUER_URL: "http://127.0.0.1:9/oidc/google",
  },
);

const paidFakes = fakesForFile(afterAll, () => ({ google: oidcFake("google"), stripe: stripeFake() }));

/** docs/product.md §4 with payments on: validate, pay in the checkout, then sign up with the provider. */
describeEachDb(
  "social sign-up with card payments on (Stripe fake, Google over OIDC)",
  (env) => {
    const parts = async () => (await paidFakes.current()).parts;

    /** The register page's checkout, paid, with Stripe's webhooks delivered. */
    const paidCheckout = async (body: Record<string, unknown>) => payCheckout(env(), (await parts()).stripe, body);

    const companyOf = (email: string) =>
      env()
        .ctx.db.selectFrom("companies")
        .innerJoin("users", "users.company_id", "companies.id")
        .selectAll("companies")
        .where("users.email", "=", email)
        .executeTakeFirst();
    const ordersOf = (companyId: string) =>
      env().ctx.db.selectFrom("orders").selectAll().where("company_id", "=", companyId).execute();
    const claimOf = (sessionId: string) =>
      env()
        .ctx.db.selectFrom("payment_events")
        .selectAll()
        .where("event_id", "=", `claim:${sessionId}`)
        .executeTakeFirst();

    it("pays 6 dashboards yearly with a coupon, then signs up with Google: active, the paid plan, one order, the coupon", async () => {
      const { google, stripe } = await parts();
      const discount = await couponCatalogue(env().ctx.db).add({
        code: freshCode("PAY"),
        type: "price.discount",
        value: 10,
      });
      // The name is not known before the provider answers: the checkout opens without a customer name.
      const order = await paidCheckout({ dashboards: 6, interval: 12, coupons: [discount.code] });
      const email = `${unique("paid")}@gmail.example`;
      google.profile = { sub: unique("g"), email, email_verified: true, name: "Paula Payer" };
      const browser = env().client();
      const { callback } = await signIn(browser, "/register/google", {
        ...CONSENTS,
        dashboards: 6,
        interval: 12,
        coupons: [discount.code],
        ...order,
      });
      expect(callback.headers.location).toBe("/intro");
      const page = await browser.pageData();
      expect(page.user).toMatchObject({ email, name: "Paula Payer" });
      expect(page.company).toMatchObject({ state: "active", services: { dashboards: 6 }, hasSubscription: true });
      expect(page.company.subscription).toMatchObject({ interval: 12 });
      expect(page.company.coupons).toMatchObject([{ code: discount.code, type: "price.discount" }]);
      const company = await companyOf(email);
      expect(company?.subscription_id).toBe(stripe.sessions.get(order.order_ref)?.subscription);
      expect(await ordersOf(company?.id as string)).toEqual([
        expect.objectContaining({ status: "paid", dashboards: 6, interval: 12 }),
      ]);
      expect(await claimOf(order.order_ref)).toMatchObject({ company_id: company?.id });
    });

    it("no order, or a forged, unpaid or used one: 422 on `order_ref` before the provider is asked", async () => {
      const { google } = await parts();
      const before = google.authorizations.length;
      const browser = env().client();
      const none = await start(browser, "/register/google", CONSENTS);
      expect(none.statusCode).toBe(422);
      expect(none.json().errors).toEqual({ order_ref: [SOCIAL_PAYMENT_REQUIRED] });

      const unpaid = await env().client().api("POST", "/api/payment/secure", { dashboards: 2, interval: 1 });
      const { order_ref, order_id } = unpaid.json().data as { order_ref: string; order_id: string };
      const used = await paidCheckout({ dashboards: 2, interval: 1 });
      const claimed = await env()
        .client()
        .register({ dashboards: 2, ...used });
      expect(claimed.response.statusCode, claimed.response.body).toBe(200);
      const attempts: Array<[string, Record<string, string>]> = [
        ["unpaid", { order_ref, order_id }],
        ["forged", { order_ref, order_id: "not-the-signature" }],
        ["unknown", { order_ref: "cs_test_999999", order_id: "x" }],
        ["used", used],
      ];
      for (const [label, order] of attempts) {
        const refused = await start(browser, "/register/google", { ...CONSENTS, ...order });
        expect(refused.statusCode, label).toBe(422);
        expect(refused.json().errors, label).toEqual({ order_ref: [BILLING_MESSAGES.orderNotPaid] });
      }
      expect(google.authorizations.length).toBe(before);
      expect(browser.cookie("social_state")).toBeUndefined();
    });

    it("an order claimed while the user was at the provider: back to /register with the reason, nothing created", async () => {
      const { google } = await parts();
      const order = await paidCheckout({ dashboards: 3, interval: 1 });
      const email = `${unique("race")}@gmail.example`;
      google.profile = { sub: unique("g"), email, email_verified: true, name: "Rae Sing" };
      const browser = env().client();
      const started = await start(browser, "/register/google", { ...CONSENTS, dashboards: 3, ...order });
      expect(started.statusCode, started.body).toBe(200);
      // The same references posted with the form in another tab win the claim.
      const other = await env()
        .client()
        .register({ dashboards: 3, ...order });
      expect(other.response.statusCode).toBe(200);
      const provider = await fetch(started.json().data.redirect, { redirect: "manual" });
      const back = new URL(provider.headers.get("location") as string);
      const callback = await browser.raw("GET", `${back.pathname}${back.search}`);
      expect(callback.headers.location).toBe("/register?social_error=payment_refused&provider=google");
      expect(socialAuthMessage("payment_refused", "google")).toBe(
        `${BILLING_MESSAGES.orderNotPaid} No account was created.`,
      );
      expect(browser.cookie("session")).toBeUndefined();
      expect(await usersWithEmail(env(), email)).toEqual([]);
      expect(await env().ctx.db.selectFrom("user_identities").selectAll().where("email", "=", email).execute()).toEqual(
        [],
      );
    });

    it("an existing Google account signing up again is signed in: its plan unchanged, the new order not claimed but refunded", async () => {
      const { google } = await parts();
      const email = `${unique("known")}@gmail.example`;
      google.profile = { sub: unique("g"), email, email_verified: true, name: "Kay Known" };
      const first = await paidCheckout({ dashboards: 2, interval: 1 });
      await signIn(env().client(), "/register/google", { ...CONSENTS, dashboards: 2, ...first });
      const company = await companyOf(email);

      const second = await paidCheckout({ dashboards: 9, interval: 12 });
      const browser = env().client();
      const { callback } = await signIn(browser, "/register/google", {
        ...CONSENTS,
        dashboards: 9,
        interval: 12,
        ...second,
      });
      // The new payment is given back (social-refund.test.ts), and the dashboards page says so.
      expect(callback.headers.location).toBe("/intro?social_notice=existing_account&provider=google");
      expect((await browser.pageData()).company).toMatchObject({ id: company?.id, services: { dashboards: 2 } });
      expect(await ordersOf(company?.id as string)).toHaveLength(1);
      // Not claimed by any company: held by its refund.
      expect(await claimOf(second.order_ref)).toMatchObject({ type: "checkout.session.refunded", company_id: null });

      // Logging in never asks for a payment.
      const login = await signIn(env().client(), "/login/google");
      expect(login.callback.headers.location).toBe("/intro");
    });
  },
  paidFakes.env,
);

describe("socialAuthMessage", () => {
  it("names the provider, and ignores codes that are not ours", () => {
    expect(socialAuthMessage("no_email", "linkedin")).toBe(
      "LinkedIn did not share an e-mail address with us, so we cannot sign you in with it.",
    );
    expect(socialAuthMessage("<script>", "google")).toBeNull();
    expect(socialAuthMessage(null, null)).toBeNull();
  });
});
