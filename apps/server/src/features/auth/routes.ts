import { API, ZLogin, ZRegister, ZSetPassword } from "@app/core";
import type { FastifyReply } from "fastify";
import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import { type App, parseInput, readForm, SESSION_COOKIE, setSessionCookie } from "../../infra/http";
import { type SignInResult, setPendingCookie } from "../two-factor/pending";
import type { AuthService } from "./service";

/** The registration page shows errors under these fields (its plan part too); anything else is reported as 'general' (docs/product.md §5). */
const REGISTRATION_FIELDS = new Set([
  "name",
  "email",
  "password",
  "password_confirmation",
  "terms_consent",
  "age_consent",
  "coupon",
  "dashboards",
  "general",
]);

function parseRegistration(fields: Record<string, string>) {
  try {
    return parseInput(ZRegister, fields);
  } catch (error) {
    if (!(error instanceof AppError) || !error.fields) throw error;
    const mapped: Record<string, string[]> = {};
    for (const [field, messages] of Object.entries(error.fields)) {
      const key = field.split(".")[0] === "coupons" ? "coupon" : REGISTRATION_FIELDS.has(field) ? field : "general";
      mapped[key] = [...(mapped[key] ?? []), ...messages];
    }
    throw AppError.validation(mapped);
  }
}

/** POST /register, /login, /logout, /password/set: form posts outside /api (docs/product.md §7). */
export function authRoutes(app: App, ctx: AppContext, auth: AuthService) {
  const rateLimit = { max: ctx.config.rateLimit.authMax, timeWindow: ctx.config.rateLimit.windowMs };
  const signIn = (reply: FastifyReply, result: SignInResult) => {
    // A pending sign-in (the second step to come, features/two-factor) gets its own cookie, no session.
    if (result.pending) setPendingCookie(reply, result.token, ctx.config.secureCookies);
    else setSessionCookie(reply, result.token, ctx.config.secureCookies, ctx.config.sessionTtlDays);
    return { data: { redirect: result.redirect } };
  };
  // Form posts: the body is read as text fields (JSON, urlencoded or multipart), then checked by the contract.
  const docs = (summary: string, route: typeof API.register | typeof API.login | typeof API.setPassword) => ({
    tags: ["auth"],
    summary,
    consumes: ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"],
    body: route.body,
    response: { 200: route.output },
  });

  app.post(
    "/register",
    { config: { rateLimit }, schema: docs("Register a company and its admin", API.register) },
    async (request, reply) => {
      // Payment and social registration (docs/product.md §4) slot in here, between validation and creation.
      const input = parseRegistration((await readForm(request)).fields);
      return signIn(reply, await auth.register(input, request.cookies[SESSION_COOKIE] ?? null));
    },
  );

  app.post("/login", { config: { rateLimit }, schema: docs("Sign in", API.login) }, async (request, reply) => {
    const input = parseInput(ZLogin, (await readForm(request)).fields);
    return signIn(reply, await auth.login(input.email, input.password, request.cookies[SESSION_COOKIE] ?? null));
  });

  app.post(
    "/password/set",
    { config: { rateLimit }, schema: docs("Set a password from an invitation", API.setPassword) },
    async (request, reply) => {
      const input = parseInput(ZSetPassword, (await readForm(request)).fields);
      return signIn(reply, await auth.setPassword(input));
    },
  );

  app.post(
    "/logout",
    { schema: { tags: ["auth"], summary: "Sign out", body: API.logout.body } },
    async (request, reply) => {
      await auth.logout(request.cookies[SESSION_COOKIE] ?? null);
      reply.clearCookie(SESSION_COOKIE, { path: "/" });
      return reply.code(204).send();
    },
  );
}
