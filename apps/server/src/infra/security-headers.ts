import type { IncomingMessage, ServerResponse } from "node:http";

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
