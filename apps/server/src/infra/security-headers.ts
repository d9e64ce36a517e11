import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";

/**
 * Content security policy of every answer. `form-action 'self'` keeps a form (should one ever get past
 * the HTML allow-list) from posting anywhere else; `frame-ancestors 'none'` with X-Frame-Options DENY
 * keeps other sites from framing our pages under a deceptive overlay (clickjacking).
 */
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  imgSrc: ["'self'", "data:", "blob:"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  scriptSrc: ["'self'"],
  connectSrc: ["'self'", "ws:", "wss:"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

export const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { directives: CSP_DIRECTIVES },
  frameguard: { action: "deny" },
  // Not `same-origin`: the OAuth popup goes to the provider and back, and `same-origin` would cut it off
  // from the page that opened it (no window.opener to hand the result to). Other sites that open our
  // pages still get no handle on them.
  crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
};

/**
 * The same policy for the one kind of page other sites may frame (the embedded dashboard view), framed
 * by the sites of EMBED_FRAME_ANCESTORS (default any). No X-Frame-Options: it cannot name several sites.
 */
function frameableOptions(frameAncestors: readonly string[]): HelmetOptions {
  return {
    contentSecurityPolicy: { directives: { ...CSP_DIRECTIVES, frameAncestors: [...frameAncestors] } },
    frameguard: false,
    crossOriginOpenerPolicy: HELMET_OPTIONS.crossOriginOpenerPolicy,
  };
}

/**
 * The one way a route opts into being framed by other sites: spread into its route `config`
 * (`app.get(path, { config: { ...ALLOW_FRAMING } }, handler)`). Only the embedded dashboard view uses
 * it (page-data routes). Everything else gets HELMET_OPTIONS.
 */
export const ALLOW_FRAMING = { allowFraming: true } as const;

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The headers a middleware such as helmet sets, captured once at start-up. Helmet's headers depend only
 * on its options (no nonces here), yet @fastify/helmet rebuilt helmet and re-parsed the CSP directives
 * on every request: a large part of the server's per-request cost. Options keep helmet's own format.
 */
export function fixedHeaders<O>(factory: (options: O) => Middleware, options: O): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
      return res;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  factory(options)({} as IncomingMessage, res as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  return headers;
}

/** Origins the pages may use beyond their own, per CSP directive. */
export interface ExtraOrigins {
  connect?: readonly string[];
  script?: readonly string[];
  frame?: readonly string[];
}

/**
 * The card provider's origins (docs/decisions.md "Registration with payment"): Stripe.js is a script from
 * STRIPE_JS_URL's origin, and its embedded checkout frames and calls Stripe's checkout and API hosts.
 * Offline, the fake serves all of it from its one origin.
 */
export function paymentOrigins(jsUrl: string | null | undefined): ExtraOrigins {
  if (!jsUrl) return {};
  const origin = new URL(jsUrl).origin;
  const stripe = origin === "https://js.stripe.com";
  return {
    script: [origin],
    frame: stripe ? [origin, "https://checkout.stripe.com", "https://hooks.stripe.com"] : [origin],
    connect: stripe ? [origin, "https://api.stripe.com", "https://checkout.stripe.com"] : [origin],
  };
}

/** The policy with more origins the pages may call (error reporting, the card provider). */
function withOrigins(options: HelmetOptions, extra: ExtraOrigins): HelmetOptions {
  const { connect = [], script = [], frame = [] } = extra;
  if (connect.length + script.length + frame.length === 0) return options;
  const csp = options.contentSecurityPolicy as { directives: typeof CSP_DIRECTIVES & { frameSrc?: string[] } };
  return {
    ...options,
    contentSecurityPolicy: {
      directives: {
        ...csp.directives,
        connectSrc: [...CSP_DIRECTIVES.connectSrc, ...connect],
        scriptSrc: [...CSP_DIRECTIVES.scriptSrc, ...script],
        ...(frame.length > 0 && { frameSrc: ["'self'", ...frame] }),
      },
    },
  };
}

/**
 * Sets the security headers on every answer from two header sets computed once. The hook runs first
 * (onRequest), so errors and 404s carry them too.
 */
export function securityHeaders(
  app: FastifyInstance,
  connectOrigins: readonly string[] = [],
  frameAncestors: readonly string[] = ["*"],
  payment: ExtraOrigins = {},
): void {
  const extra: ExtraOrigins = { ...payment, connect: [...connectOrigins, ...(payment.connect ?? [])] };
  const standard = fixedHeaders(helmet, withOrigins(HELMET_OPTIONS, extra));
  const frameable = fixedHeaders(helmet, withOrigins(frameableOptions(frameAncestors), extra));
  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(request.routeOptions.config?.allowFraming ? frameable : standard);
    done();
  });
}
