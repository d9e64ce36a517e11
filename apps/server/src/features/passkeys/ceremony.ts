import { PASSKEY_MESSAGES, type TPasskeyAssertion, type TPasskeyAttestation } from "@app/core";
import type { AuthenticationResponseJSON, RegistrationResponseJSON, WebAuthnCredential } from "@simplewebauthn/server";
import type { AppContext } from "../../context";
import type { PasskeysTable, UsersTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { nowIso } from "../../infra/security";
import type { PasskeysRepo } from "./repo";

/** How long the browser may take over a ceremony, and how long its challenge stays good (a little longer). */
export const CEREMONY_TIMEOUT_MS = 120_000;
export const CHALLENGE_TTL_MS = 5 * 60_000;

/** What a challenge was handed out for: it is taken back only for the same purpose (and user). */
export type ChallengePurpose = "register" | "sign-in" | "verify";

/**
 * The WebAuthn library and its encoding helpers, loaded on the first ceremony: with its certificate and
 * ASN.1 parsers it is ~0.4 s of imports, which every server start (and every server test file) paid for a
 * sign-in method few requests use (docs/decisions.md, "Libraries a few requests need load on first use").
 */
let library: Promise<
  [typeof import("@simplewebauthn/server"), typeof import("@simplewebauthn/server/helpers")]
> | null = null;
export function webauthnLibrary() {
  library ??= Promise.all([import("@simplewebauthn/server"), import("@simplewebauthn/server/helpers")]);
  return library;
}

/** Loopback addresses: the same machine as `localhost`. */
const LOOPBACK = new Set(["127.0.0.1", "[::1]"]);

/**
 * The relying party is the app's own address (APP_URL): its host is the RP id every passkey is bound
 * to, and its origin the only one a browser's answer may come from (docs/decisions.md, "Passkeys: the
 * relying party is APP_URL's host"). Browsers refuse an IP address as an RP id, so an APP_URL on a
 * loopback address (a developer's machine, the browser tests) is taken as `localhost` on the same port,
 * where the app answers too.
 */
export function relyingParty(config: AppContext["config"]) {
  const url = new URL(config.appUrl);
  if (LOOPBACK.has(url.hostname)) url.hostname = "localhost";
  return { id: url.hostname, origin: url.origin, name: config.siteTitle };
}

/** A refused ceremony: one message whatever the reason (the reason goes to the log). */
export function refused(): AppError {
  return AppError.validation({ passkey: [PASSKEY_MESSAGES.refused] });
}

/** WebAuthn ceremonies against the app's relying party, with challenges kept in the database. */
export function ceremonies(ctx: AppContext, repo: PasskeysRepo) {
  const rp = relyingParty(ctx.config);

  async function issueChallenge(challenge: string, purpose: ChallengePurpose, userId: string | null) {
    const now = ctx.clock.now().getTime();
    // Expired challenges go as new ones come: the table stays as small as the ceremonies under way.
    await repo.deleteExpiredChallenges(new Date(now).toISOString());
    await repo.insertChallenge({
      challenge,
      purpose,
      user_id: userId,
      expires_at: new Date(now + CHALLENGE_TTL_MS).toISOString(),
    });
  }

  /** The library checks the answer's challenge with this: it is good once, for its purpose and user. */
  const takeChallenge = (purpose: ChallengePurpose, userId: string | null) => (challenge: string) =>
    repo.takeChallenge(challenge, purpose, userId, ctx.clock.now().toISOString());

  const log = (what: string, error: unknown) =>
    ctx.logger.info({ reason: error instanceof Error ? error.message : String(error) }, `passkey ${what} refused`);

  return {
    rp,

    /** Options for a new passkey of `user`: discoverable, user verification required, none of theirs again. */
    async registrationOptions(user: UsersTable, existing: PasskeysTable[]) {
      const [{ generateRegistrationOptions }, { isoUint8Array }] = await webauthnLibrary();
      const options = await generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: user.email,
        userDisplayName: user.name,
        // The user handle a discoverable passkey gives back at sign-in: the user's id (random, no personal data).
        userID: isoUint8Array.fromUTF8String(user.id),
        timeout: CEREMONY_TIMEOUT_MS,
        attestationType: "none",
        excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
        authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
      });
      await issueChallenge(options.challenge, "register", user.id);
      return options;
    },

    /** The browser's answer to `registrationOptions`, checked: the credential to keep, or a 422. */
    async verifyRegistration(user: UsersTable, response: TPasskeyAttestation): Promise<WebAuthnCredential> {
      const [{ verifyRegistrationResponse }] = await webauthnLibrary();
      try {
        const result = await verifyRegistrationResponse({
          response: {
            ...response,
            clientExtensionResults: response.clientExtensionResults ?? {},
          } as RegistrationResponseJSON,
          expectedChallenge: takeChallenge("register", user.id),
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          requireUserVerification: true,
        });
        if (!result.verified) throw new Error("not verified");
        return result.registrationInfo.credential;
      } catch (error) {
        log("registration", error);
        throw refused();
      }
    },

    /**
     * Options for an assertion: of any discoverable passkey (`userId` null, a passwordless sign-in), or
     * of one of the known user's `allowed` passkeys.
     */
    async assertionOptions(purpose: ChallengePurpose, userId: string | null, allowed: PasskeysTable[]) {
      const [{ generateAuthenticationOptions }] = await webauthnLibrary();
      const options = await generateAuthenticationOptions({
        rpID: rp.id,
        timeout: CEREMONY_TIMEOUT_MS,
        userVerification: "required",
        allowCredentials: allowed.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
      });
      await issueChallenge(options.challenge, purpose, userId);
      return options;
    },

    /**
     * Checks an assertion of `passkey` against a challenge of `purpose` (for `userId`), then records its
     * counter; a counter that did not move forward (a cloned authenticator, a replay) is refused.
     */
    async verifyAssertion(
      response: TPasskeyAssertion,
      passkey: PasskeysTable,
      purpose: ChallengePurpose,
      userId: string | null,
    ): Promise<void> {
      const [{ verifyAuthenticationResponse }, { isoBase64URL }] = await webauthnLibrary();
      let newCounter: number;
      try {
        // A discoverable passkey names its user: it must be the one the credential was registered to.
        const handle = response.response.userHandle;
        if (handle && isoBase64URL.toUTF8String(handle) !== passkey.user_id) throw new Error("user handle mismatch");
        const result = await verifyAuthenticationResponse({
          response: {
            ...response,
            clientExtensionResults: response.clientExtensionResults ?? {},
          } as AuthenticationResponseJSON,
          expectedChallenge: takeChallenge(purpose, userId),
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          credential: {
            id: passkey.credential_id,
            publicKey: isoBase64URL.toBuffer(passkey.public_key),
            counter: Number(passkey.counter),
            transports: transportsOf(passkey) as WebAuthnCredential["transports"],
          },
          requireUserVerification: true,
        });
        if (!result.verified) throw new Error("not verified");
        newCounter = result.authenticationInfo.newCounter;
      } catch (error) {
        log("assertion", error);
        throw refused();
      }
      if (!(await repo.recordUse(passkey.id, Number(passkey.counter), newCounter, nowIso()))) {
        log("assertion", new Error("counter raced"));
        throw refused();
      }
    },
  };
}

export function transportsOf(row: PasskeysTable): string[] {
  try {
    const parsed: unknown = JSON.parse(row.transports);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
}
