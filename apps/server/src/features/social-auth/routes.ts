import { API, ZSocialLogin, ZSocialRegister } from "@app/core";
import type { FastifyReply } from "fastify";
import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import { type App, parseInput, readForm, SESSION_COOKIE, setSessionCookie } from "../../infra/http";
import { setPendingCookie } from "../two-factor/pending";
import { SOCIAL_STATE_TTL_MS, type SocialAuthService } from "./service";

/**
 * The browser that started a sign-in holds its state in this cookie (only sent to the callback path), so
 * a callback address opened anywhere else (a link an attacker sends, to sign the victim into the
 * attacker's account) is refused.
 */
const STATE_COOKIE = "social_state";
const CALLBACK_PATH = "/auth/";

/** The form's fields, with the coupons' errors on `coupon` as POST /register answers them (docs/product.md §5). */
function parseSocialRegistration(fields: Record<string, string>) {
  try {
    return parseInput(ZSocialRegister, fields);
  } catch (error) {
    if (!(error instanceof AppError) || !error.fields) throw error;
    const mapped: Record<string, string[]> = {};
    for (const [field, messages] of Object.entries(error.fields)) {
      const key = field.split(".")[0] === "coupons" ? "coupon" : field;
      mapped[key] = [...(mapped[key] ?? []), ...messages];
    }
    throw AppError.validation(mapped);
  }
}

/**
 * POST /register/{provider} and POST /login/{provider} (docs/product.md §7) answer the provider's consent
 * page as the redirect (the page goes there); GET /auth/{provider}/callback is where the provider sends
 * the browser back, and redirects into the app signed in or back to the page with the reason.
 */
export function socialAuthRoutes(app: App, ctx: AppContext, social: SocialAuthService) {
  const rateLimit = { max: ctx.config.rateLimit.authMax, timeWindow: ctx.config.rateLimit.windowMs };
  const consumes = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"];

  const toProvider = (reply: FastifyReply, started: { url: string; state: string }) => {
    reply.setCookie(STATE_COOKIE, started.state, {
      path: CALLBACK_PATH,
      httpOnly: true,
      sameSite: "lax", // sent on the provider's top-level redirect back to us
      secure: ctx.config.secureCookies,
      maxAge: SOCIAL_STATE_TTL_MS / 1000,
    });
    return { data: { redirect: started.url } };
  };

  app.post(
    "/register/:provider",
    {
      config: { rateLimit },
      schema: {
        tags: ["auth"],
        summary: "Start a social registration: consents and plan first, then the provider's consent page",
        consumes,
        params: API.socialRegister.params,
        body: API.socialRegister.body,
        response: { 200: API.socialRegister.output },
      },
    },
    async (request, reply) => {
      social.ensureOffered(request.params.provider);
      // docs/product.md §4: the age and terms checkboxes (and the coupons and payment) are confirmed
      // before the provider is asked.
      const input = parseSocialRegistration((await readForm(request)).fields);
      return toProvider(reply, await social.start(request.params.provider, "register", input));
    },
  );

  app.post(
    "/login/:provider",
    {
      config: { rateLimit },
      schema: {
        tags: ["auth"],
        summary: "Start a social login: answers the provider's consent page",
        consumes,
        params: API.socialLogin.params,
        body: API.socialLogin.body,
        response: { 200: API.socialLogin.output },
      },
    },
    async (request, reply) => {
      social.ensureOffered(request.params.provider);
      parseInput(ZSocialLogin, (await readForm(request)).fields);
      return toProvider(reply, await social.start(request.params.provider, "login", null));
    },
  );

  app.get(
    "/auth/:provider/callback",
    {
      config: { rateLimit },
      schema: {
        tags: ["auth"],
        summary:
          "Where the provider sends the browser back: signs in and redirects into the app, or back with the reason",
        params: API.socialCallback.params,
        querystring: API.socialCallback.query,
      },
    },
    async (request, reply) => {
      const outcome = await social.callback(
        request.params.provider,
        request.query,
        request.cookies[STATE_COOKIE] ?? null,
        request.cookies[SESSION_COOKIE] ?? null,
      );
      reply.clearCookie(STATE_COOKIE, { path: CALLBACK_PATH });
      if (outcome.kind === "signed-in") {
        setSessionCookie(reply, outcome.token, ctx.config.secureCookies, ctx.config.sessionTtlDays);
      }
      // A user with a second factor: the pending sign-in's cookie, and the second step's page next.
      if (outcome.kind === "second-step") setPendingCookie(reply, outcome.token, ctx.config.secureCookies);
      return reply.header("cache-control", "no-store").redirect(outcome.redirect, 302);
    },
  );
}
