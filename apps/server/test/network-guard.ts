import { http, passthrough } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";

/**
 * Server tests may only talk HTTP to loopback: the fake servers they start themselves (S3, OAuth, child
 * processes of the app). A call anywhere else would make a test depend on the network, leak test data
 * or be silently slow, so it is refused (the caller sees a network error) and fails the test that made
 * it even when the code under test swallows that error. msw sees `fetch` and `node:http`/`https`
 * (not raw TCP: PostgreSQL, Redis and SMTP are unaffected). Loaded as a `setupFiles` entry.
 */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

const strays: string[] = [];

// The one handler matches loopback only and sends it on to the real local server; anything else matches
// no handler, which is what `onUnhandledRequest` refuses. (A handler matching everything and answering
// nothing would let the request out.)
const server = setupServer(
  http.all(
    ({ request }) => isLoopback(request.url),
    () => passthrough(),
  ),
);

function reportStrays() {
  if (strays.length === 0) return;
  const calls = strays.splice(0);
  throw new Error(`Outbound HTTP to a host that is not loopback (tests may only reach 127.0.0.1): ${calls.join(", ")}`);
}

beforeAll(() => {
  server.listen({
    onUnhandledRequest(request, print) {
      strays.push(`${request.method} ${request.url}`);
      print.error();
    },
  });
});

afterEach(reportStrays);

afterAll(() => {
  server.close();
  reportStrays();
});

/** The stray calls recorded since the last check, cleared (for the guard's own test). */
export function takeStrays(): string[] {
  return strays.splice(0);
}
