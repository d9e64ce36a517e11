import { z } from "zod";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import { ProviderError } from "../http/errors";
import type { OAuthAdapter, OAuthAdapterFactory, OAuthExchangeInput } from "../oauth/adapter";
import { standardOAuth2 } from "../oauth/standard";
import type { MailchimpProviderConfig } from "./settings";

/**
 * Mailchimp's OAuth (Marketing API 3.0, docs/connectors.md): the plain code grant at
 * login.mailchimp.com (`/oauth2/authorize`, a form POST to `/oauth2/token`), with no scopes, a token
 * that never expires and no refresh token. Two quirks of its own:
 * - the token answer is `{access_token, expires_in: 0, scope: null}`, which the standard answer schema
 *   would refuse (0 is not a lifetime), so the token POST is read with Mailchimp's own schema;
 * - the token does not say where the account lives: `GET /oauth2/metadata` with `Authorization: OAuth
 *   <token>` names the data centre (`dc`, "us6"), which every API call needs in its host name
 *   (`https://{dc}.api.mailchimp.com/3.0`). It is stored with the token.
 * Mailchimp documents no revocation endpoint: the user removes the app in Mailchimp (Profile →
 * Extras → Registered apps → Connected apps).
 */

/** The stored credentials of a Mailchimp source (sealed in the sources table). */
export type MailchimpTokens = {
  access_token: string;
  /** The account's data centre ("us6"), checked against DC_PATTERN before it goes into a host name. */
  dc: string;
};

/** A data centre as Mailchimp names them: letters then digits. It comes from the network, so it is checked. */
export const DC_PATTERN = /^[a-z]+\d+$/;

const ZToken = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().nullable().optional(),
  scope: z.string().nullable().optional(),
});
const ZMetadata = z.object({
  dc: z.string(),
  accountname: z.string().optional(),
  login: z.object({ email: z.string().optional(), login_email: z.string().optional() }).partial().optional(),
  api_endpoint: z.string().optional(),
});

/** The variables Mailchimp needs. */
export function missingMailchimpConfig(config: MailchimpProviderConfig): string[] {
  return [
    config.clientId ? null : "MAILCHIMP_CLIENT_ID",
    config.clientSecret ? null : "MAILCHIMP_CLIENT_SECRET",
  ].filter((name): name is string => name !== null);
}

/**
 * The API's origin for a data centre: MAILCHIMP_API_URL with `{dc}` replaced (tests point it at the
 * fakes' origin, which has no `{dc}`). A data centre of any other shape is refused before it can steer
 * the request to another host.
 */
export function mailchimpApiUrl(config: MailchimpProviderConfig, dc: string): string {
  if (!DC_PATTERN.test(dc)) {
    throw new ProviderError(
      "mailchimp",
      "auth",
      `the stored data centre "${dc.slice(0, 20)}" is not one of Mailchimp's`,
    );
  }
  return config.apiUrl.replaceAll("{dc}", dc);
}

export function mailchimpOAuth(config: MailchimpProviderConfig, counters: RateLimitStore): OAuthAdapter {
  const login = config.loginUrl.replace(/\/+$/, "");
  const standard = standardOAuth2({
    provider: "mailchimp-oauth",
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    clientVariables: ["MAILCHIMP_CLIENT_ID", "MAILCHIMP_CLIENT_SECRET"],
    authUrl: `${login}/oauth2/authorize`,
    tokenUrl: `${login}/oauth2/token`,
    // Mailchimp has no scopes: a grant reaches the whole account.
    scopes: {},
    counters,
  });
  const path = new URL(`${login}/oauth2/token`).pathname;
  const metadataPath = new URL(`${login}/oauth2/metadata`).pathname;

  return {
    authorizeUrl: (input) => standard.authorizeUrl(input),

    /** The code for the token, then the metadata for the data centre; the account is Mailchimp's account name. */
    async exchange(input: OAuthExchangeInput) {
      if (!config.clientId || !config.clientSecret) {
        throw new ProviderError(
          "mailchimp-oauth",
          "server",
          "MAILCHIMP_CLIENT_ID and MAILCHIMP_CLIENT_SECRET are not set",
        );
      }
      const token = await standard.tokenClient.request({
        method: "POST",
        path,
        form: {
          grant_type: "authorization_code",
          client_id: config.clientId,
          client_secret: config.clientSecret,
          redirect_uri: input.redirectUri,
          code: input.code,
        },
        schema: ZToken,
      });
      const metadata = await standard.tokenClient.request({
        path: metadataPath,
        headers: { authorization: `OAuth ${token.access_token}` },
        schema: ZMetadata,
      });
      if (!DC_PATTERN.test(metadata.dc)) {
        throw new ProviderError("mailchimp-oauth", "server", "the metadata named no data centre of Mailchimp's", {
          retryable: false,
        });
      }
      const tokens: MailchimpTokens = { access_token: token.access_token, dc: metadata.dc };
      return {
        tokens,
        account: metadata.accountname || metadata.login?.login_email || metadata.login?.email || metadata.dc,
      };
    },
  };
}

/** The OAuth adapter that connects this family's connectors (`Connector.oauth`), built from the server's configuration. */
export const mailchimpOAuthAdapter: OAuthAdapterFactory = (providers, counters) =>
  mailchimpOAuth(providers.mailchimp, counters);
