import type { FastifyReply } from "fastify";

/**
 * The browser's half of a pending sign-in (a password accepted, the second step to come): a random
 * token in an httpOnly cookie sent only to the sign-in routes; the server keeps its hash.
 */
export const PENDING_COOKIE = "two_factor";
const PENDING_COOKIE_PATH = "/login";
/** How long the second step may take after the password. */
export const PENDING_TTL_MS = 10 * 60_000;
/** Wrong codes one pending sign-in takes before it ends (the password is asked again). */
export const MAX_PENDING_FAILURES = 5;

/** What a sign-in answers: a session, or (`pending`) a pending sign-in waiting for its second step. */
export interface SignInResult {
  token: string;
  redirect: string;
  pending?: true;
}

export function setPendingCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(PENDING_COOKIE, token, {
    path: PENDING_COOKIE_PATH,
    httpOnly: true,
    sameSite: "lax",
    secure,
    maxAge: PENDING_TTL_MS / 1000,
  });
}

export function clearPendingCookie(reply: FastifyReply): void {
  reply.clearCookie(PENDING_COOKIE, { path: PENDING_COOKIE_PATH });
}
