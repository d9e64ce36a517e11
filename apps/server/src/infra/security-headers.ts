import type { FastifyHelmetOptions } from "@fastify/helmet";

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

export const HELMET_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: { directives: CSP_DIRECTIVES },
  frameguard: { action: "deny" },
};

/**
 * The one way a route opts into being framed by other sites: spread into its route options
 * (`app.get(path, { ...ALLOW_FRAMING, schema }, handler)`). Meant for the embedded dashboard view only;
 * no route uses it yet. Everything else stays as HELMET_OPTIONS says.
 */
export const ALLOW_FRAMING = {
  helmet: {
    contentSecurityPolicy: { directives: { ...CSP_DIRECTIVES, frameAncestors: ["*"] } },
    frameguard: false,
  },
} as const;
