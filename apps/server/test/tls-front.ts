import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/**
 * An HTTPS front for the fakes (which are plain HTTP), for connectors whose behaviour depends on the
 * address being https:// (WooCommerce sends the key in the query string only over TLS). It terminates
 * TLS with a test-only certificate for 127.0.0.1 (fixtures/tls, made with
 * `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500
 * -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1`) and passes each request on to `target`
 * with `X-Forwarded-Proto: https`, as a hosting company's proxy tells the site behind it.
 *
 * The server under test runs in the test's process, which trusts the certificate from its start
 * (NODE_EXTRA_CA_CERTS, set for the server tests in vitest.config.ts): verification stays on.
 */
const DIR = join(import.meta.dirname, "fixtures", "tls");
const CERT = readFileSync(join(DIR, "test-only-127.0.0.1.cert.pem"), "utf8");
const KEY = readFileSync(join(DIR, "test-only-127.0.0.1.key.pem"), "utf8");

export interface TlsFront {
  /** https://127.0.0.1:port */
  url: string;
  close(): Promise<void>;
}

export async function startTlsFront(target: string): Promise<TlsFront> {
  const upstream = new URL(target);
  const server = https.createServer({ key: KEY, cert: CERT }, (request, response) => {
    const headers = { ...request.headers, host: upstream.host, "x-forwarded-proto": "https" };
    const forward = http.request(
      new URL(request.url ?? "/", upstream),
      { method: request.method, headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on("error", () => response.destroy());
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
