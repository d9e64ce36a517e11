import { API, ZTwoFactorCode } from "@app/core";
import type { AppContext } from "../../context";
import {
  type App,
  adminOnly,
  parseInput,
  readForm,
  requireAdmin,
  requireAuth,
  SESSION_COOKIE,
  setSessionCookie,
} from "../../infra/http";
import { countAsLoginAttempt } from "../../infra/http-rate-limit";
import { clearPendingCookie, PENDING_COOKIE } from "./pending";
import type { TwoFactorService } from "./service";
import type { PendingSignIns } from "./sign-in";

/** POST /login/two-factor and the two-factor settings under /api (docs/product.md, "Two-factor sign-in"). */
export function twoFactorRoutes(app: App, ctx: AppContext, twoFactor: TwoFactorService, signIns: PendingSignIns) {
  const tags = ["two-factor"];
  // Codes and passkey answers are guessed like passwords: each counts in the same shared limit as POST /login.
  const countAsLogin = countAsLoginAttempt(ctx);

  app.post(
    "/login/two-factor",
    {
      onRequest: countAsLogin,
      schema: {
        tags: ["auth"],
        summary: "Complete a sign-in with its second factor (an authenticator or recovery code)",
        consumes: ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"],
        body: API.twoFactorLogin.body,
        response: { 200: API.twoFactorLogin.output },
      },
    },
    async (request, reply) => {
      const input = parseInput(ZTwoFactorCode, (await readForm(request)).fields);
      const result = await signIns.completeWithCode(
        request.cookies[PENDING_COOKIE] ?? null,
        input.code,
        request.cookies[SESSION_COOKIE] ?? null,
      );
      clearPendingCookie(reply);
      setSessionCookie(reply, result.token, ctx.config.secureCookies, ctx.config.sessionTtlDays);
      return { data: { redirect: result.redirect } };
    },
  );

  app.get(
    "/api/two-factor",
    { schema: { tags, summary: "The user's two-factor state", response: { 200: API.twoFactorShow.output } } },
    async (request) => ({ data: await twoFactor.status(requireAuth(request)) }),
  );

  app.post(
    "/api/two-factor/setup",
    {
      schema: {
        tags,
        summary: "Start setting up an authenticator: a new secret, shown once",
        body: API.twoFactorSetup.body,
        response: { 200: API.twoFactorSetup.output },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return { data: await twoFactor.setup(requireAuth(request)) };
    },
  );

  app.post(
    "/api/two-factor/enable",
    {
      schema: {
        tags,
        summary: "Turn two-factor on with a current code; answers the recovery codes, shown once",
        body: API.twoFactorEnable.body,
        response: { 200: API.twoFactorEnable.output },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return { data: await twoFactor.enable(requireAuth(request), request.body.code) };
    },
  );

  app.post(
    "/api/two-factor/disable",
    {
      schema: {
        tags,
        summary: "Turn two-factor off (the password or a current code again)",
        body: API.twoFactorDisable.body,
        response: { 200: API.twoFactorDisable.output },
      },
    },
    async (request) => ({ data: await twoFactor.disable(requireAuth(request), request.body) }),
  );

  app.post(
    "/api/two-factor/recovery-codes",
    {
      schema: {
        tags,
        summary: "New recovery codes, replacing all others (the password or a current code again)",
        body: API.twoFactorRecoveryCodes.body,
        response: { 200: API.twoFactorRecoveryCodes.output },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return { data: await twoFactor.regenerateRecoveryCodes(requireAuth(request), request.body) };
    },
  );

  app.put(
    "/api/company/two-factor",
    {
      preValidation: adminOnly,
      schema: {
        tags: ["company"],
        summary: "Require two-factor sign-in of every member (admins)",
        body: API.companyTwoFactor.body,
        response: { 200: API.companyTwoFactor.output },
      },
    },
    async (request) => {
      requireAdmin(request);
      return { data: await twoFactor.setCompanyRequirement(requireAuth(request), request.body.required) };
    },
  );
}
