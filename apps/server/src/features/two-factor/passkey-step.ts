import { API } from "@app/core";
import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import { type App, SESSION_COOKIE, setSessionCookie } from "../../infra/http";
import { countAsLoginAttempt } from "../../infra/http-rate-limit";
import type { PasskeysService } from "../passkeys";
import { clearPendingCookie, PENDING_COOKIE } from "./pending";
import type { PendingSignIns } from "./sign-in";

const EXPIRED = "Your sign-in has expired. Please sign in again.";

/**
 * The sign-in's second step with a passkey instead of a code (docs/product.md, "Two-factor sign-in"):
 * options that allow only the pending user's passkeys, then the browser's answer, checked by
 * features/passkeys for that user, completes the pending sign-in as a code would.
 */
export function passkeyStepRoutes(app: App, ctx: AppContext, signIns: PendingSignIns, passkeys: PasskeysService) {
  // Codes and passkey answers are guessed like passwords: each counts in the same shared limit as POST /login.
  const countAsLogin = countAsLoginAttempt(ctx);
  const pendingUser = async (token: string | undefined) => {
    const user = await signIns.pendingUser(token ?? null);
    if (!user) throw AppError.validation({ passkey: [EXPIRED] });
    return user;
  };

  app.post(
    "/login/two-factor/passkey/options",
    {
      schema: {
        tags: ["auth"],
        summary: "A challenge for the pending sign-in's passkeys (its second step with a passkey)",
        body: API.twoFactorPasskeyOptions.body,
        response: { 200: API.twoFactorPasskeyOptions.output },
      },
    },
    async (request) => ({ data: await passkeys.optionsForUser(await pendingUser(request.cookies[PENDING_COOKIE])) }),
  );

  app.post(
    "/login/two-factor/passkey",
    {
      onRequest: countAsLogin,
      schema: {
        tags: ["auth"],
        summary: "Complete a sign-in with one of the user's passkeys as its second factor",
        body: API.twoFactorPasskey.body,
        response: { 200: API.twoFactorPasskey.output },
      },
    },
    async (request, reply) => {
      const pendingToken = request.cookies[PENDING_COOKIE] ?? null;
      const user = await pendingUser(pendingToken ?? undefined);
      await passkeys.verifyForUser(user.id, request.body.response);
      const result = await signIns.completePendingSignIn(
        pendingToken,
        user.id,
        request.cookies[SESSION_COOKIE] ?? null,
      );
      clearPendingCookie(reply);
      setSessionCookie(reply, result.token, ctx.config.secureCookies, ctx.config.sessionTtlDays);
      return { data: { redirect: result.redirect } };
    },
  );
}
