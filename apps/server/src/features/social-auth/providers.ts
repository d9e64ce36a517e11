import { createHmac } from "node:crypto";
import type { TSocialProvider } from "@app/core";
import * as oidc from "openid-client";
import type { OidcClientConfig, SocialLoginConfig } from "../../infra/config";

/** Who the provider says signed in. */
export interface SocialProfile {
  /** The provider's stable id of the account (never the e-mail, which can change hands). */
  subject: string;
  email: string | null;
  /** Only a provider's explicit word counts: an address it does not vouch for is never linked to an account. */
  emailVerified: boolean;
  name: string | null;
  /**
   * The provider says the person passed a second factor of its own (an ID token's `amr` claim, RFC
   * 8176, naming "mfa"): then our second step is not asked again. Absent: it did not say so.
   */
  mfa?: boolean;
}

/** What the start of a sign-in keeps until the provider sends the browser back. */
export interface SignInChecks {
  state: string;
  /** PKCE, when the provider supports it (LinkedIn's web clients do not). */
  codeVerifier: string | null;
  /** OpenID Connect's nonce, when the provider echoes it in the ID token (LinkedIn does not). */
  nonce: string | null;
}

export interface SocialClient {
  /** The consent page's address, and the checks to keep for the answer. */
  start(redirectUri: string): Promise<{ url: string; checks: SignInChecks }>;
  /** Checks the answer (callback URL with its query), exchanges the code, and says who signed in. */
  finish(callbackUrl: URL, checks: SignInChecks): Promise<SocialProfile>;
}

/** The provider refused or could not be reached; `kind` picks the words the user reads. */
export class SocialProviderError extends Error {
  constructor(
    readonly kind: "provider_failed" | "expired",
    message: string,
  ) {
    super(message);
    this.name = "SocialProviderError";
  }
}

const TIMEOUT_SECONDS = 10;

/** Provider quirks of OpenID Connect sign-in. */
interface OidcQuirks {
  scope: string;
  /** LinkedIn does not put the nonce in its ID tokens, so sending one makes every sign-in fail. */
  nonce: boolean;
}

const OIDC_QUIRKS: Record<"google" | "linkedin", OidcQuirks> = {
  google: { scope: "openid email profile", nonce: true },
  linkedin: { scope: "openid profile email", nonce: false },
};

/** `email_verified` as providers send it: a boolean (Google), sometimes the string "true". */
function verifiedClaim(value: unknown): boolean {
  return value === true || value === "true";
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/**
 * Google and LinkedIn over OpenID Connect (openid-client): discovery from the issuer (kept once it
 * succeeded), PKCE where the issuer advertises it, nonce where the provider honours it, the ID token
 * verified against the issuer's keys; its e-mail, or the userinfo endpoint's when the token has none.
 */
function oidcClient(config: OidcClientConfig, quirks: OidcQuirks): SocialClient {
  let discovered: Promise<oidc.Configuration> | null = null;
  const configuration = () => {
    discovered ??= oidc
      .discovery(new URL(config.issuerUrl), config.clientId, config.clientSecret, undefined, {
        timeout: TIMEOUT_SECONDS,
        // Local fakes and test issuers are plain HTTP; production refuses that in the configuration.
        execute: new URL(config.issuerUrl).protocol === "http:" ? [oidc.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        discovered = null; // a failed discovery is tried again on the next sign-in
        throw new SocialProviderError("provider_failed", `discovery failed: ${String(error)}`);
      });
    return discovered;
  };

  return {
    async start(redirectUri) {
      const server = await configuration();
      const pkce = server.serverMetadata().supportsPKCE();
      const checks: SignInChecks = {
        state: oidc.randomState(),
        codeVerifier: pkce ? oidc.randomPKCECodeVerifier() : null,
        nonce: quirks.nonce ? oidc.randomNonce() : null,
      };
      const parameters: Record<string, string> = {
        redirect_uri: redirectUri,
        scope: quirks.scope,
        state: checks.state,
      };
      if (checks.codeVerifier) {
        parameters.code_challenge = await oidc.calculatePKCECodeChallenge(checks.codeVerifier);
        parameters.code_challenge_method = "S256";
      }
      if (checks.nonce) parameters.nonce = checks.nonce;
      return { url: oidc.buildAuthorizationUrl(server, parameters).href, checks };
    },

    async finish(callbackUrl, checks) {
      const server = await configuration();
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(server, callbackUrl, {
          expectedState: checks.state,
          pkceCodeVerifier: checks.codeVerifier ?? undefined,
          expectedNonce: checks.nonce ?? undefined,
          idTokenExpected: true,
        });
      } catch (error) {
        throw new SocialProviderError("provider_failed", `code exchange failed: ${String(error)}`);
      }
      const claims = tokens.claims();
      if (!claims) throw new SocialProviderError("provider_failed", "no ID token");
      let email = text(claims.email);
      let emailVerified = verifiedClaim(claims.email_verified);
      let name = text(claims.name);
      if (!email && server.serverMetadata().userinfo_endpoint) {
        const info = await oidc.fetchUserInfo(server, tokens.access_token, claims.sub).catch((error: unknown) => {
          throw new SocialProviderError("provider_failed", `userinfo failed: ${String(error)}`);
        });
        email = text(info.email);
        emailVerified = verifiedClaim(info.email_verified);
        name ??= text(info.name);
      }
      const mfa = Array.isArray(claims.amr) && claims.amr.includes("mfa");
      return { subject: claims.sub, email: email?.toLowerCase() ?? null, emailVerified, name, mfa };
    },
  };
}

/**
 * Facebook Login, plain OAuth 2 (Facebook's OpenID Connect is for its mobile SDKs only): the dialog,
 * the code exchanged at the Graph API, then `/me?fields=id,name,email`. Graph has no "verified" flag
 * for the e-mail (removed in v3.0), so a Facebook address is never taken as verified: it can create an
 * account, sign in the identity it created, but never link to an existing account.
 */
function facebookClient(config: NonNullable<SocialLoginConfig["facebook"]>): SocialClient {
  const graph = (path: string, query: Record<string, string>) => {
    const url = new URL(`${config.graphUrl}/${config.version}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    return url;
  };
  const getJson = async (url: URL, what: string, token?: string): Promise<Record<string, unknown>> => {
    let response: Response;
    try {
      response = await fetch(url, {
        signal: AbortSignal.timeout(TIMEOUT_SECONDS * 1000),
        // The token in a header, not the address, keeps it out of proxies' and servers' access logs.
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
    } catch (error) {
      throw new SocialProviderError("provider_failed", `${what}: ${String(error)}`);
    }
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!response.ok || !body) {
      throw new SocialProviderError("provider_failed", `${what}: HTTP ${response.status} ${JSON.stringify(body)}`);
    }
    return body;
  };

  return {
    async start(redirectUri) {
      const checks: SignInChecks = { state: oidc.randomState(), codeVerifier: null, nonce: null };
      const url = new URL(`${config.dialogUrl}/${config.version}/dialog/oauth`);
      url.searchParams.set("client_id", config.appId);
      url.searchParams.set("redirect_uri", redirectUri);
      url.searchParams.set("state", checks.state);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("scope", "email,public_profile");
      return { url: url.href, checks };
    },

    async finish(callbackUrl, checks) {
      const query = callbackUrl.searchParams;
      if (query.get("state") !== checks.state) throw new SocialProviderError("expired", "state mismatch");
      const code = query.get("code");
      if (!code) throw new SocialProviderError("provider_failed", "no code");
      const redirectUri = `${callbackUrl.origin}${callbackUrl.pathname}`;
      const token = await getJson(
        graph("/oauth/access_token", {
          client_id: config.appId,
          client_secret: config.appSecret,
          redirect_uri: redirectUri,
          code,
        }),
        "code exchange",
      );
      const accessToken = text(token.access_token);
      if (!accessToken) throw new SocialProviderError("provider_failed", "no access token");
      const me = await getJson(
        graph("/me", {
          fields: "id,name,email",
          // Meta's recommended proof that the call comes from the app's server, not a stolen token.
          appsecret_proof: createHmac("sha256", config.appSecret).update(accessToken).digest("hex"),
        }),
        "profile",
        accessToken,
      );
      const subject = text(me.id);
      if (!subject) throw new SocialProviderError("provider_failed", "no user id");
      return { subject, email: text(me.email)?.toLowerCase() ?? null, emailVerified: false, name: text(me.name) };
    },
  };
}

/** The configured providers' clients (a provider without credentials has none, and is not offered). */
export function socialClients(config: SocialLoginConfig): Partial<Record<TSocialProvider, SocialClient>> {
  return {
    ...(config.google && { google: oidcClient(config.google, OIDC_QUIRKS.google) }),
    ...(config.linkedin && { linkedin: oidcClient(config.linkedin, OIDC_QUIRKS.linkedin) }),
    ...(config.facebook && { facebook: facebookClient(config.facebook) }),
  };
}
