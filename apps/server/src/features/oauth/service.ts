import { createHash, randomBytes } from "node:crypto";
import { OAUTH_MESSAGE_TYPE, type TOAuthResult } from "@app/core";
import { type Connector, connectorByKey, missingConfig, ProviderError } from "../../connectors";
import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import { newId } from "../../infra/security";
import type { SourcesService } from "../sources/service";
import type { Actor } from "../users/service";

/** A started connection, kept server-side until the provider sends the user back (10 minutes at most). */
interface PendingConnection {
  companyId: string;
  userId: string;
  connector: string;
  codeVerifier: string;
  sourceId: string | null;
  /** The account typed before the consent screen (connectors with `oauthAccount`). */
  account: string | null;
}

const STATE_TTL_MS = 10 * 60_000;

type OAuthConnector = Connector & { oauth: NonNullable<Connector["oauth"]> };

const base64url = (bytes: Buffer) => bytes.toString("base64url");

/** Words for the user when the provider sends them back with an error instead of a code. */
function providerRefusal(name: string, error: string, description: string | undefined): string {
  // OAuth's refusal is `access_denied`; LinkedIn says `user_cancelled_authorize` (or `user_cancelled_login`).
  if (error === "access_denied" || error.startsWith("user_cancelled"))
    return `You did not allow access to your ${name} account, so nothing was connected.`;
  return `${name} could not connect this account (${description ?? error}). Please try again.`;
}

/**
 * OAuth 2 connections (docs/connectors.md, "OAuth"): `start` remembers a state, a PKCE verifier, who
 * asked and for which source, and answers the consent screen's address; `callback` checks the state
 * against the signed-in user, exchanges the code, and creates the source or re-authorises the one
 * named at the start. Provider quirks live in the adapters (`connectors/oauth/*`).
 */
export function oauthService(ctx: AppContext, sources: () => SourcesService) {
  const pending = ctx.cache<PendingConnection>("oauth-state", { maxSize: 10_000, ttlMs: STATE_TTL_MS });
  const redirectUri = (connector: string) => `${ctx.config.appUrl}/api/oauth/${encodeURIComponent(connector)}/callback`;

  function oauthConnector(key: string): OAuthConnector {
    const connector = connectorByKey(key);
    if (!connector?.oauth) throw AppError.notFound("This connector does not connect with OAuth.");
    const missing = missingConfig(connector, ctx.config.providers);
    if (missing.length > 0) {
      throw AppError.validation({
        name: [`${connector.displayName} is not configured on this server (set ${missing.join(" and ")}).`],
      });
    }
    return connector as OAuthConnector;
  }

  /** The provider family's adapter; each keeps its quirks (Google's PKCE and refresh, Meta's token swap …). */
  const adapter = (connector: OAuthConnector) => connector.oauth(ctx.config.providers, ctx.rateLimits);

  return {
    /** True when `key` names a connector that connects with OAuth (configured on this server or not). */
    isOAuthConnector(key: string): boolean {
      return connectorByKey(key)?.oauth !== undefined;
    },

    async start(
      actor: Actor,
      key: string,
      sourceId: string | null,
      typedAccount: string | null = null,
    ): Promise<string> {
      const connector = oauthConnector(key);
      const account = typedAccount?.trim() || null;
      if (connector.oauthAccount && !account) throw AppError.validation({ account: ["Please fill out this field."] });
      if (sourceId) {
        const existing = (await sources().list(actor)).find((source) => source.id === sourceId);
        if (!existing) throw AppError.notFound("Source not found.");
        if (existing.name !== connector.key) {
          throw AppError.validation({ source_id: ["This source belongs to another connector."] });
        }
      }
      const state = newId(32);
      const codeVerifier = base64url(randomBytes(32));
      await pending.set(state, {
        companyId: actor.companyId,
        userId: actor.id,
        connector: connector.key,
        codeVerifier,
        sourceId,
        account: connector.oauthAccount ? account : null,
      });
      return adapter(connector).authorizeUrl({
        connector: connector.key,
        state,
        codeChallenge: base64url(createHash("sha256").update(codeVerifier).digest()),
        redirectUri: redirectUri(connector.key),
      });
    },

    /** Never throws: every outcome is a result the popup hands to the page that opened it. */
    async callback(
      actor: Actor,
      key: string,
      query: { code?: string; auth_code?: string; state?: string; error?: string; error_description?: string },
    ): Promise<TOAuthResult> {
      const fail = (message: string): TOAuthResult => ({
        type: OAUTH_MESSAGE_TYPE,
        ok: false,
        connector: key,
        sourceId: null,
        message,
      });
      let connector: OAuthConnector;
      try {
        connector = oauthConnector(key);
      } catch (error) {
        return fail(error instanceof AppError ? (error.fields?.name?.[0] ?? error.message) : "Unknown connector.");
      }
      const started = query.state ? await pending.get(query.state) : undefined;
      // One use only: a replayed callback finds nothing.
      if (query.state) await pending.deletePrefix(query.state);
      if (
        !started ||
        started.connector !== connector.key ||
        started.companyId !== actor.companyId ||
        started.userId !== actor.id
      ) {
        return fail("This sign-in has expired or was not started from this page. Please click Connect again.");
      }
      if (query.error) return fail(providerRefusal(connector.displayName, query.error, query.error_description));
      // TikTok API for Business names it `auth_code` (it sends `code` too, but only `auth_code` is documented).
      const code = query.code || query.auth_code;
      if (!code) return fail(`${connector.displayName} sent no authorisation code. Please try again.`);
      try {
        const { tokens, account } = await adapter(connector).exchange({
          code,
          codeVerifier: started.codeVerifier,
          redirectUri: redirectUri(connector.key),
          now: ctx.clock.now().getTime(),
          account: started.account ?? null,
        });
        const source = await sources().connectOAuth(
          actor,
          connector,
          { credentials: { ...tokens }, account },
          started.sourceId,
        );
        return { type: OAUTH_MESSAGE_TYPE, ok: true, connector: connector.key, sourceId: source.id, message: null };
      } catch (error) {
        ctx.logger.warn({ err: error, connector: connector.key }, "OAuth connection failed");
        if (error instanceof ProviderError && error.kind === "auth") {
          return fail(`${connector.displayName} did not accept the sign-in (${error.reason}). Please try again.`);
        }
        // The typed account is not one the login can see (AccuRanker): the adapter's words say which.
        if (error instanceof ProviderError && error.kind === "input" && error.field === "account") {
          return fail(error.reason);
        }
        if (error instanceof AppError && error.code === "not_found")
          return fail("The source to re-authorise was deleted.");
        return fail(
          `${connector.displayName} could not be reached to finish connecting. Please try again in a moment.`,
        );
      }
    },
  };
}

export type OAuthService = ReturnType<typeof oauthService>;
