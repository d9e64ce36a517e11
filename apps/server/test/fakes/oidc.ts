/**
 * An OpenID Connect provider for social sign-in (Google, LinkedIn) as a part of the fakes app (./app.ts):
 * `oauth2-mock-server` (real keys, discovery, PKCE, nonce, signed ID tokens) mounted under
 * `/oidc/<name>`, its issuer. Each sign-in's ID token and userinfo carry `state.profile`, which tests
 * (or `POST /_fake/oidc/<name>/profile` under `npm run dev:fakes` and the browser tests) set.
 * `pkce: false` plays LinkedIn, whose discovery document advertises no PKCE and whose ID tokens carry
 * no nonce even when one was sent.
 */
import { Readable } from "node:stream";
import { Events, OAuth2Issuer, OAuth2Service } from "oauth2-mock-server";
import { z } from "zod";
import type { FakePart } from "./app";

export interface FakeOidcProfile {
  sub: string;
  email: string | null;
  email_verified: boolean;
  name: string;
  /** The ID token's `amr` (RFC 8176): `["pwd", "mfa"]` plays a provider that checked its own second factor. */
  amr?: string[];
}

export interface FakeOidc {
  clientId: string;
  clientSecret: string;
  /** Who the next sign-ins are. */
  profile: FakeOidcProfile;
  /** The authorization requests' query parameters, in order (tests check PKCE and nonce were sent or not). */
  authorizations: Record<string, string>[];
  /** The token requests' form bodies, in order. */
  tokenRequests: Record<string, string>[];
}

const ZProfile = z.object({
  sub: z.string().min(1),
  email: z.string().nullable(),
  email_verified: z.boolean(),
  name: z.string(),
  amr: z.array(z.string()).optional(),
});

export function oidcFake(name: "google" | "linkedin", options: { pkce?: boolean } = {}): FakePart<FakeOidc> {
  const prefix = `/oidc/${name}`;
  const issuer = new OAuth2Issuer();
  const service = new OAuth2Service(issuer);
  const state: FakeOidc = {
    clientId: `fake-${name}-login-client`,
    clientSecret: `fake-${name}-login-secret`,
    profile: { sub: `${name}-user-1`, email: `ada@${name}.example`, email_verified: true, name: "Ada Lovelace" },
    authorizations: [],
    tokenRequests: [],
  };
  const claims = () => ({
    sub: state.profile.sub,
    name: state.profile.name,
    ...(state.profile.email !== null && { email: state.profile.email, email_verified: state.profile.email_verified }),
  });

  service.on(Events.BeforeTokenSigning, (token) => {
    Object.assign(token.payload, claims());
    // Only the ID token says how the person authenticated (userinfo carries no `amr`).
    if (state.profile.amr) token.payload.amr = state.profile.amr;
    if (options.pkce === false) delete token.payload.nonce;
  });
  service.on(Events.BeforeUserinfo, (response) => {
    response.body = claims();
  });
  /**
   * The discovery document, written here rather than the mock's: real providers authenticate the client
   * with its secret (the mock advertises "none"), and LinkedIn advertises no PKCE. (oauth2-mock-server 8,
   * the last major that runs on Node 20, has no hook to change its own.) Endpoints are the mock's.
   */
  const discovery = (issuerUrl: string) => ({
    issuer: issuerUrl,
    authorization_endpoint: `${issuerUrl}/authorize`,
    token_endpoint: `${issuerUrl}/token`,
    userinfo_endpoint: `${issuerUrl}/userinfo`,
    jwks_uri: `${issuerUrl}/jwks`,
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
    token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    ...(options.pkce !== false && { code_challenge_methods_supported: ["S256"] }),
  });

  return {
    state,
    env: (origin) => ({
      [`SOCIAL_${name.toUpperCase()}_CLIENT_ID`]: state.clientId,
      [`SOCIAL_${name.toUpperCase()}_CLIENT_SECRET`]: state.clientSecret,
      [`SOCIAL_${name.toUpperCase()}_ISSUER_URL`]: `${origin}${prefix}`,
    }),
    async register(app, shared) {
      await issuer.keys.generate("RS256");
      app.post(`/_fake${prefix}/profile`, async (request, reply) => {
        const parsed = ZProfile.safeParse(request.body);
        if (!parsed.success) return reply.code(400).send({ error: "body: { sub, email, email_verified, name, amr? }" });
        state.profile = parsed.data;
        return state.profile;
      });
      // Before Fastify reads the body: the mock reads the raw request itself, with the prefix taken off.
      app.addHook("onRequest", async (request, reply) => {
        if (!request.url.startsWith(`${prefix}/`)) return;
        issuer.url = `${shared.origin()}${prefix}`;
        const url = new URL(request.url, "http://fake");
        const path = url.pathname.slice(prefix.length);
        if (path === "/.well-known/openid-configuration") return reply.send(discovery(issuer.url));
        if (path === "/authorize") state.authorizations.push(Object.fromEntries(url.searchParams));
        if (path === "/token") {
          // The form body is read once here (a copy) and handed to the mock as the stream it expects.
          const chunks: Buffer[] = [];
          for await (const chunk of request.raw) chunks.push(chunk as Buffer);
          const body = Buffer.concat(chunks);
          state.tokenRequests.push(Object.fromEntries(new URLSearchParams(body.toString())));
          const replay = Object.assign(Readable.from([body]), {
            headers: request.raw.headers,
            method: request.raw.method,
            url: `${path}${url.search}`,
          });
          reply.hijack();
          service.requestHandler(replay as never, reply.raw);
          return;
        }
        request.raw.url = `${path}${url.search}`;
        reply.hijack();
        service.requestHandler(request.raw, reply.raw);
      });
    },
  };
}
