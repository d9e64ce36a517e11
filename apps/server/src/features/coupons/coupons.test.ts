import { expect, it } from "vitest";
import { buildMember, buildOwner } from "../../../test/factories";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { newId } from "../../infra/security";
import { couponCatalogue } from "./catalogue";

const NOT_STACKABLE = "Code / Coupon not stackable with other code(s) / coupon(s)";

/** A code no other case of the suite uses (one database serves the whole suite). */
const fresh = (prefix: string) =>
  `${prefix}${newId(6)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "X")}`;

async function define(env: TestEnv, definition: Record<string, unknown>): Promise<string> {
  const row = await couponCatalogue(env.ctx.db).add(definition);
  return row.code;
}

function apply(client: TestClient, coupon: string) {
  return client.api("POST", "/api/company/coupon", { coupon });
}

/** docs/product.md §5, §7, §8: applying codes to a company, with every message of §8. */
describeEachDb("coupons: apply to a company", (env) => {
  it("applies a code: the exact success text, the applied list, the company's coupons", async () => {
    const code = await define(env(), { code: fresh("SPRING"), type: "price.discount", value: 20, name: "Spring" });
    const { client } = await buildOwner(env());
    const response = await apply(client, code);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.message).toBe(`Code / Coupon ${code} activated successfully`);
    expect(body.applied).toEqual([code]);
    expect(body.data.coupons).toEqual([
      { code, type: "price.discount", value: 20, name: "Spring", appliedAt: expect.any(String) },
    ]);
    // What the subscription page reads afterwards.
    const company = (await client.api("GET", "/api/company")).json().data;
    expect(company.coupons.map((c: { code: string }) => c.code)).toEqual([code]);
  });

  it("an unknown code: 'Code / Coupon {code} is invalid' on the field coupon", async () => {
    const { client } = await buildOwner(env());
    const response = await apply(client, "NO-SUCH-CODE");
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      message: "Code / Coupon NO-SUCH-CODE is invalid",
      errors: { coupon: ["Code / Coupon NO-SUCH-CODE is invalid"] },
    });
  });

  it("the same code twice, in another case, is refused and counted once", async () => {
    const code = await define(env(), { code: fresh("Twice"), type: "dashboards.bonus", value: 2 });
    const { client } = await buildOwner(env());
    expect((await apply(client, code)).statusCode).toBe(200);
    const again = await apply(client, `  ${code.toLowerCase()} `);
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(`Code / Coupon ${code.toLowerCase()} is invalid`);
    const company = (await client.api("GET", "/api/company")).json().data;
    expect(company.services.bonusDashboards).toBe(2);
    expect(company.coupons).toHaveLength(1);
    const [row] = (await couponCatalogue(env().ctx.db).list()).filter((c) => c.code === code);
    expect(row.redemptions).toBe(1);
  });

  it("stacking follows the last coupon's type and the per-type maximum", async () => {
    const percent = await define(env(), { code: fresh("PCT"), type: "price.discount", value: 10 });
    const percent2 = await define(env(), { code: fresh("PCT"), type: "price.discount", value: 5 });
    const fixed = await define(env(), { code: fresh("FIX"), type: "price.fixed", value: 100 });
    const bonus = await define(env(), { code: fresh("BON"), type: "dashboards.bonus", value: 1 });
    const lifetime = await define(env(), { code: fresh("LTD"), type: "ltd.appsumo", value: 10 });
    const { client } = await buildOwner(env());
    expect((await apply(client, percent)).statusCode).toBe(200);
    // A second percent discount: at most one of that type.
    const second = await apply(client, percent2);
    expect(second.statusCode).toBe(422);
    expect(second.json()).toMatchObject({ message: NOT_STACKABLE, errors: { coupon: [NOT_STACKABLE] } });
    // A lifetime deal never follows a recurring price coupon.
    expect((await apply(client, lifetime)).json().message).toBe(NOT_STACKABLE);
    expect((await apply(client, fixed)).statusCode).toBe(200);
    const last = await apply(client, bonus);
    expect(last.statusCode).toBe(200);
    expect(last.json().applied).toEqual([percent, fixed, bonus]);
  });

  it("an expired code and a used-up code are invalid", async () => {
    const expired = await define(env(), {
      code: fresh("OLD"),
      type: "price.discount",
      value: 10,
      expires: "2020-01-01",
    });
    const single = await define(env(), { code: fresh("ONE"), type: "dashboards.bonus", value: 1, max: 1 });
    const first = await buildOwner(env());
    const second = await buildOwner(env());
    expect((await apply(first.client, expired)).json().message).toBe(`Code / Coupon ${expired} is invalid`);
    expect((await apply(first.client, single)).statusCode).toBe(200);
    const late = await apply(second.client, single);
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toBe(`Code / Coupon ${single} is invalid`);
  });

  it("two companies taking the last redemption at once: exactly one gets it", async () => {
    const last = await define(env(), { code: fresh("LAST"), type: "dashboards.bonus", value: 1, max: 1 });
    const owners = await Promise.all([buildOwner(env()), buildOwner(env()), buildOwner(env())]);
    const answers = await Promise.all(owners.map((owner) => apply(owner.client, last)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422, 422]);
    const [row] = (await couponCatalogue(env().ctx.db).list()).filter((c) => c.code === last);
    expect(row.redemptions).toBe(1);
  });

  it("bonus dashboards raise the allowance: a refused dashboard can then be created", async () => {
    const bonus = await define(env(), { code: fresh("MORE"), type: "dashboards.bonus", value: 2 });
    const { client } = await buildOwner(env(), { company: { services_dashboards: 1 } });
    expect((await client.api("POST", "/api/dashboards", { name: "One" })).statusCode).toBe(200);
    const refused = await client.api("POST", "/api/dashboards", { name: "Two" });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe("All Dashboards Used Up");
    const applied = await apply(client, bonus);
    expect(applied.json().data).toMatchObject({
      services: { dashboards: 1, bonusDashboards: 2 },
      canCreateDashboard: true,
    });
    expect((await client.api("POST", "/api/dashboards", { name: "Two" })).statusCode).toBe(200);
    expect((await client.api("POST", "/api/dashboards", { name: "Three" })).statusCode).toBe(200);
    expect((await client.api("POST", "/api/dashboards", { name: "Four" })).statusCode).toBe(422);
  });

  it("a lifetime deal on a trial company: active for life with its dashboards", async () => {
    const lifetime = await define(env(), { code: fresh("SUMO"), type: "ltd.appsumo", value: 10 });
    const more = await define(env(), { code: fresh("SUMO"), type: "ltd.appsumo", value: 5 });
    const { client } = await buildOwner(env());
    expect((await apply(client, lifetime)).json().data).toMatchObject({
      state: "active",
      expiresAt: null,
      services: { dashboards: 10, bonusDashboards: 0 },
      isTrialWithoutSubscription: false,
    });
    // AppSumo buyers stack codes to own more dashboards.
    expect((await apply(client, more)).json().data.services.dashboards).toBe(15);
  });

  it("only admins apply codes (403); a missing code is a 422 on the field", async () => {
    const code = await define(env(), { code: fresh("ADM"), type: "price.discount", value: 10 });
    const { company } = await buildOwner(env());
    const { client: member } = await buildMember(env(), { company, role: "user" });
    const refused = await apply(member, code);
    expect(refused.statusCode).toBe(403);
    const { client: admin } = await buildMember(env(), { company, role: "admin" });
    const empty = await admin.api("POST", "/api/company/coupon", { coupon: "  " });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.coupon).toEqual(["Enter a code."]);
    // Nothing was applied by the refused member.
    expect((await admin.api("GET", "/api/company")).json().data.coupons).toEqual([]);
  });
});

describeEachDb("coupons: what a price counts (billing's forPrice)", (env) => {
  it("typed codes as registration would apply them; a company's applied ones", async () => {
    const percent = await define(env(), { code: fresh("P"), type: "price.discount", value: 20 });
    const percent2 = await define(env(), { code: fresh("P"), type: "price.discount", value: 30 });
    const old = await define(env(), { code: fresh("O"), type: "price.fixed", value: 100, expires: "2020-01-01" });
    const bonus = await define(env(), { code: fresh("B"), type: "dashboards.bonus", value: 2 });
    const coupons = env().services.get("coupons");
    const typed = await coupons.forPrice(null, [percent, percent.toLowerCase(), percent2, old, "UNKNOWN", bonus]);
    expect(typed.map((c) => [c.code, c.type, c.value])).toEqual([
      [percent, "price.discount", 20],
      [bonus, "dashboards.bonus", 2],
    ]);
    const { client, company } = await buildOwner(env());
    await apply(client, bonus);
    await apply(client, percent2);
    const applied = await coupons.forPrice(company.id, [percent]);
    expect(applied.map((c) => c.code)).toEqual([bonus, percent2]);
  });
});

describeEachDb("coupons: the public look-up", (env) => {
  it("answers type, value and name of a usable code, in any case", async () => {
    const code = await define(env(), { code: fresh("LOOK"), type: "price.fixed", value: 250, name: "2.50 off" });
    const guest = env().client();
    const response = await guest.api("GET", `/api/coupons/${code.toLowerCase()}?email=someone%40example.com`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({ code, type: "price.fixed", value: 250, name: "2.50 off" });
  });

  it("unknown, expired and used-up codes: 404 'Code / Coupon not valid'", async () => {
    const expired = await define(env(), {
      code: fresh("GONE"),
      type: "price.discount",
      value: 10,
      expires: "2021-05-01",
    });
    const used = await define(env(), { code: fresh("USED"), type: "dashboards.bonus", value: 1, max: 1 });
    const { client } = await buildOwner(env());
    expect((await apply(client, used)).statusCode).toBe(200);
    const guest = env().client();
    // Characters no code has (a NUL byte PostgreSQL would refuse, spaces, slashes) are simply not a code.
    for (const code of ["NOTHING", expired, used, "%00", "two%20words", "%C3%A9t%C3%A9"]) {
      const response = await guest.api("GET", `/api/coupons/${code}`);
      expect(response.statusCode, code).toBe(404);
      expect(response.json().message).toBe("Code / Coupon not valid");
    }
  });
});

describeEachDb(
  "coupons: the look-up is rate-limited",
  (env) => {
    it("429 once the limit (3 × RATE_LIMIT_AUTH_MAX per window) is spent", async () => {
      const guest = env().client();
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await guest.api("GET", `/api/coupons/TRY${i}`)).statusCode);
      expect(statuses).toEqual([404, 404, 404, 404, 404, 404, 429]);
    });
  },
  { RATE_LIMIT_AUTH_MAX: "2" },
);

describeEachDb("coupons: at registration", (env) => {
  it("a valid code is applied as the account is created", async () => {
    const bonus = await define(env(), { code: fresh("WELCOME"), type: "dashboards.bonus", value: 3 });
    const client = env().client();
    const { response } = await client.register({ coupons: JSON.stringify([bonus.toLowerCase()]), dashboards: 5 });
    expect(response.statusCode, response.body).toBe(200);
    const company = (await client.api("GET", "/api/company")).json().data;
    expect(company.services).toEqual({ dashboards: 5, bonusDashboards: 3 });
    expect(company.coupons.map((c: { code: string }) => c.code)).toEqual([bonus]);
  });

  it("an invalid code: 422 on `coupon` with the spec's words, and no account is created", async () => {
    const good = await define(env(), { code: fresh("GOOD"), type: "price.discount", value: 10 });
    const client = env().client();
    const { response, email, password } = await client.register({ coupons: JSON.stringify([good, "BOGUS"]) });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ coupon: ["Code / Coupon BOGUS is invalid"] });
    expect((await env().client().login(email, password)).statusCode).toBe(422);
    // The good code was not spent by the failed attempt, and the address is still free.
    const [row] = (await couponCatalogue(env().ctx.db).list()).filter((c) => c.code === good);
    expect(row.redemptions).toBe(0);
    const retry = await env()
      .client()
      .register({ email, coupons: JSON.stringify([good]) });
    expect(retry.response.statusCode, retry.response.body).toBe(200);
  });

  it("codes that do not stack are refused at sign-up with the stacking message", async () => {
    const a = await define(env(), { code: fresh("PA"), type: "price.discount", value: 10 });
    const b = await define(env(), { code: fresh("PB"), type: "price.discount", value: 20 });
    const { response } = await env()
      .client()
      .register({ coupons: JSON.stringify([a, b]) });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ coupon: [NOT_STACKABLE] });
  });

  it("an AppSumo code forces the dashboard flow and gives its dashboards for life", async () => {
    const sumo = await define(env(), { code: fresh("APPSUMO"), type: "ltd.appsumo", value: 20 });
    const client = env().client();
    const { response, email } = await client.register({ coupons: JSON.stringify([sumo]), flow: "mc" });
    expect(response.statusCode, response.body).toBe(200);
    const user = await env()
      .ctx.db.selectFrom("users")
      .select("onboarding_flow")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(user.onboarding_flow).toBe("dashboard");
    const company = (await client.api("GET", "/api/company")).json().data;
    expect(company).toMatchObject({ state: "active", expiresAt: null, services: { dashboards: 20 } });
    // Without a lifetime code the page's flow stands.
    const other = env().client();
    const plain = await other.register({ flow: "mc" });
    const plainUser = await env()
      .ctx.db.selectFrom("users")
      .select("onboarding_flow")
      .where("email", "=", plain.email)
      .executeTakeFirstOrThrow();
    expect(plainUser.onboarding_flow).toBe("mc");
  });
});
