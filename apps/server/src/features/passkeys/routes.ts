import { API } from "@app/core";
import type { AppContext } from "../../context";
import { type App, requireAuth, SESSION_COOKIE, setSessionCookie } from "../../infra/http";
import { countAsLoginAttempt } from "../../infra/http-rate-limit";
import type { PasskeysService } from "./service";

/**
 * The signed-in user's passkeys under /api/passkeys, and the passwordless sign-in beside POST /login
 * (docs/product.md §7), whose attempts count in POST /login's own per-address window: a passkey is
 * one more way to try to sign in, not a second allowance of tries.
 */
export function passkeyRoutes(app: App, ctx: AppContext, passkeys: PasskeysService) {
  const tags = ["passkeys"];
  const { authMax, windowMs } = ctx.config.rateLimit;
  // As POST /login: each address has authMax requests per window, counted before anything is read.
  const rateLimit = { max: authMax, timeWindow: windowMs };
  const countAsLogin = countAsLoginAttempt(ctx);

  app.post(
    "/passkey/login/options",
    {
      config: { rateLimit },
      schema: {
        tags: ["auth"],
        summary: "Start a passwordless sign-in: a challenge for any of the browser's passkeys",
        body: API.passkeySignInOptions.body,
        response: { 200: API.passkeySignInOptions.output },
      },
    },
    async () => ({ data: await passkeys.signInOptions() }),
  );

  app.post(
    "/passkey/login",
    {
      onRequest: countAsLogin,
      schema: {
        tags: ["auth"],
        summary: "Sign in with a passkey (the browser's answer to the sign-in options)",
        body: API.passkeySignIn.body,
        response: { 200: API.passkeySignIn.output },
      },
    },
    async (request, reply) => {
      const result = await passkeys.signIn(request.body.response, request.cookies[SESSION_COOKIE] ?? null);
      setSessionCookie(reply, result.token, ctx.config.secureCookies, ctx.config.sessionTtlDays);
      return { data: { redirect: result.redirect } };
    },
  );

  app.get("/api/passkeys", { schema: { tags, response: { 200: API.passkeysList.output } } }, async (request) => ({
    data: await passkeys.list(requireAuth(request)),
  }));

  app.post(
    "/api/passkeys/options",
    {
      schema: {
        tags,
        summary: "Start registering a passkey: the options for the browser",
        body: API.passkeyRegistrationOptions.body,
        response: { 200: API.passkeyRegistrationOptions.output },
      },
    },
    async (request) => ({ data: await passkeys.registrationOptions(requireAuth(request)) }),
  );

  app.post(
    "/api/passkeys",
    {
      schema: {
        tags,
        summary: "Register a passkey (the browser's answer to the options, and its name)",
        body: API.passkeyCreate.body,
        response: { 200: API.passkeyCreate.output },
      },
    },
    async (request) => ({ data: await passkeys.register(requireAuth(request), request.body) }),
  );

  app.put(
    "/api/passkeys/:id",
    {
      schema: {
        tags,
        summary: "Rename a passkey",
        params: API.passkeyUpdate.params,
        body: API.passkeyUpdate.body,
        response: { 200: API.passkeyUpdate.output },
      },
    },
    async (request) => ({
      data: await passkeys.rename(requireAuth(request), request.params.id, request.body.name),
    }),
  );

  app.delete(
    "/api/passkeys/:id",
    {
      // Wrong passwords count as at POST /login, per address.
      config: { rateLimit },
      schema: {
        tags,
        summary: "Remove a passkey (the password again, or an assertion of one of the user's passkeys)",
        params: API.passkeyDelete.params,
        body: API.passkeyDelete.body,
      },
    },
    async (request, reply) => {
      await passkeys.remove(requireAuth(request), request.params.id, request.body);
      return reply.code(204).send();
    },
  );

  app.post(
    "/api/passkeys/verify/options",
    {
      schema: {
        tags,
        summary: "Options for an assertion of one of the signed-in user's own passkeys (to confirm a removal)",
        body: API.passkeyVerifyOptions.body,
        response: { 200: API.passkeyVerifyOptions.output },
      },
    },
    async (request) => ({ data: await passkeys.optionsForUser(requireAuth(request).user) }),
  );
}
