import { QUESTIONNAIRE_AFTER_INTRO, QUESTIONNAIRE_FORCED_FLOW } from "@app/core";
import { expect, it } from "vitest";
import { describeEachDb, type TestEnv } from "../../../test/harness";
import { newId } from "../../infra/security";
import { couponCatalogue } from "../coupons/catalogue";

const savedSource = async (env: TestEnv, email: string) =>
  (
    await env.ctx.db
      .selectFrom("users")
      .select("onboarding_source")
      .where("email", "=", email)
      .executeTakeFirstOrThrow()
  ).onboarding_source;

/** The intro questionnaire (docs/product.md §3): its answer is saved with the intro and picks the flow. */
describeEachDb("intro questionnaire", (env) => {
  it("the answer is saved with the intro and comes back in the page data", async () => {
    const owner = env().client();
    const { email } = await owner.register();
    expect((await owner.pageData()).onboarding).toEqual({ flow: "dashboard", step: 0, source: null, forcedFlow: null });

    const passed = await owner.api("POST", "/api/user/data", {
      intro_passed: true,
      onboarding: 1,
      onboarding_source: "mc",
    });
    expect(passed.statusCode, passed.body).toBe(200);
    expect(passed.json().data.introPassed).toBe(true);
    expect(await savedSource(env(), email)).toBe("mc");
    // The registration's flow stays as it was; the web's initialState takes the flow from the source.
    expect((await owner.pageData()).onboarding).toEqual({ flow: "dashboard", step: 1, source: "mc", forcedFlow: null });

    // A retried intro request (the answer already saved) is taken; a switch after the intro is not.
    const retried = await owner.api("POST", "/api/user/data", {
      intro_passed: true,
      onboarding: 1,
      onboarding_source: "mc",
    });
    expect(retried.statusCode, retried.body).toBe(200);
    const switched = await owner.api("POST", "/api/user/data", { onboarding: 2, onboarding_source: "dashboard" });
    expect(switched.statusCode).toBe(422);
    expect(switched.json().errors).toEqual({ onboarding_source: [QUESTIONNAIRE_AFTER_INTRO] });
    // Nothing of the refused request was saved, not even its step.
    expect((await owner.pageData()).onboarding).toMatchObject({ step: 1, source: "mc" });
  });

  it.each([["friend"], [""], [7], [null]])(
    "an unknown source (%j) is a 422 on onboarding_source, nothing saved",
    async (source) => {
      const owner = env().client();
      const { email } = await owner.register();
      const answer = await owner.api("POST", "/api/user/data", {
        intro_passed: true,
        onboarding: 1,
        onboarding_source: source,
      });
      expect(answer.statusCode).toBe(422);
      expect(answer.json().errors).toEqual({
        onboarding_source: ["The onboarding source must be one of: dashboard, mc."],
      });
      expect(await savedSource(env(), email)).toBeNull();
      const page = await owner.pageData();
      expect(page.user.introPassed).toBe(false);
      expect(page.onboarding).toMatchObject({ step: 0, source: null });
    },
  );

  it("the intro can still be passed without an answer: the registration's flow stands", async () => {
    const owner = env().client();
    const { email } = await owner.register({ flow: "mc" });
    const passed = await owner.api("POST", "/api/user/data", { intro_passed: true, onboarding: 1 });
    expect(passed.statusCode, passed.body).toBe(200);
    expect(await savedSource(env(), email)).toBeNull();
    const page = await owner.pageData();
    expect(page.user.introPassed).toBe(true);
    expect(page.onboarding).toEqual({ flow: "mc", step: 1, source: null, forcedFlow: null });
  });

  it("a lifetime deal keeps the dashboard flow: the page data says so and an mc answer is refused", async () => {
    const code = `SUMO${newId(6)
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, "X")}`;
    await couponCatalogue(env().ctx.db).add({ code, type: "ltd.appsumo", value: 10 });
    const owner = env().client();
    const { response, email } = await owner.register({ coupons: JSON.stringify([code]), flow: "mc" });
    expect(response.statusCode, response.body).toBe(200);
    expect((await owner.pageData()).onboarding).toEqual({
      flow: "dashboard",
      step: 0,
      source: null,
      forcedFlow: "dashboard",
    });
    const refused = await owner.api("POST", "/api/user/data", {
      intro_passed: true,
      onboarding: 1,
      onboarding_source: "mc",
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ onboarding_source: [QUESTIONNAIRE_FORCED_FLOW] });
    expect(await savedSource(env(), email)).toBeNull();
    expect((await owner.pageData()).user.introPassed).toBe(false);
    // The intro as the page sends it for such a company: no answer.
    const passed = await owner.api("POST", "/api/user/data", { intro_passed: true, onboarding: 1 });
    expect(passed.statusCode, passed.body).toBe(200);
    expect((await owner.pageData()).onboarding).toMatchObject({ flow: "dashboard", step: 1, forcedFlow: "dashboard" });
  });
});
