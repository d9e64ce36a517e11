import net, { type AddressInfo } from "node:net";
import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { describeEachDb, type TestClient, type TestEnv } from "./harness";

/**
 * Every request gets a complete HTTP answer over a real socket, and the connection is closed only
 * after it (src/infra/lingering-close.ts). The client here is a slow, busy one: it sends the body in
 * pieces and reads nothing until all of it is sent, so an answer given early (a 401 before the body is
 * read, a 413 on the declared length) is still in its receive buffer when the server closes; a server
 * that closes with the body unread sends a TCP reset, which destroys that answer.
 */

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const PIECE = 64 * 1024;
const THREE_MB = Buffer.alloc(3 * 1024 * 1024, "a");
/** Routes with a body limit of their own above the app's 2 MB (features/page-data/chart-snapshots.ts: 8 MB). */
const LARGE_BODY_ROUTES = new Set(["POST /api/chart-snapshots"]);

/** The complete HTTP/1.1 answer at the start of `bytes`, or null while it is not complete. */
function completeAnswer(bytes: Buffer, closed: boolean): Answer | null {
  const headEnd = bytes.indexOf("\r\n\r\n");
  if (headEnd === -1) return null;
  const [statusLine, ...lines] = bytes.subarray(0, headEnd).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  const rest = bytes.subarray(headEnd + 4);
  if (headers["content-length"] !== undefined) {
    const length = Number(headers["content-length"]);
    return rest.length >= length ? { status, headers, body: rest.subarray(0, length).toString("utf8") } : null;
  }
  if (headers["transfer-encoding"] === "chunked") {
    const chunks: Buffer[] = [];
    let at = 0;
    for (;;) {
      const lineEnd = rest.indexOf("\r\n", at);
      if (lineEnd === -1) return null;
      const size = Number.parseInt(rest.subarray(at, lineEnd).toString("latin1"), 16);
      if (rest.length < lineEnd + 2 + size + 2) return null;
      if (size === 0) return { status, headers, body: Buffer.concat(chunks).toString("utf8") };
      chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
  }
  return closed ? { status, headers, body: rest.toString("utf8") } : null;
}

interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/**
 * Sends the request (the body in 64 KB pieces, 2 ms apart), reads nothing until it is all sent, then
 * reads the answer. Rejects when the connection fails (a reset, a broken pipe) before a complete answer.
 */
function send(port: number, request: RawRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.pause();
    const received: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      const answer = completeAnswer(Buffer.concat(received), closed);
      if (answer) {
        done = true;
        socket.destroy();
        resolve(answer);
      } else if (closed) {
        done = true;
        reject(new Error(`connection closed without a complete answer (${Buffer.concat(received).length} bytes)`));
      }
    };
    socket.on("data", (chunk: Buffer) => {
      received.push(chunk);
      finish(false);
    });
    socket.on("end", () => finish(true));
    socket.on("error", (error) => {
      if (done) return;
      done = true;
      socket.destroy();
      reject(new Error(`${error.message} after ${Buffer.concat(received).length} bytes of answer`));
    });
    const body = request.body ?? Buffer.alloc(0);
    const head = [
      `${request.method} ${request.path} HTTP/1.1`,
      `host: 127.0.0.1:${port}`,
      ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
      ...(request.body !== undefined ? [`content-length: ${body.length}`] : []),
    ].join("\r\n");
    socket.write(`${head}\r\n\r\n`);
    let offset = 0;
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      if (offset >= body.length) {
        clearInterval(timer);
        // A moment for the server to answer and close while nothing is read, then read.
        setTimeout(() => socket.resume(), 50);
        return;
      }
      socket.write(body.subarray(offset, offset + PIECE));
      offset += PIECE;
    }, 2);
  });
}

/** An answer in the spec's error shape: `{code, message}` as JSON. */
function expectErrorShape(answer: Answer) {
  expect(answer.headers["content-type"]).toContain("application/json");
  const body = JSON.parse(answer.body) as { code?: unknown; message?: unknown };
  expect(typeof body.code).toBe("string");
  expect(typeof body.message).toBe("string");
  return body;
}

describeEachDb("every request gets a complete HTTP answer over a real socket", (env: () => TestEnv) => {
  let port = 0;
  let owner: TestClient;
  /** The headers of the owner's page: session cookie and identification. */
  let signedIn: Record<string, string> = {};

  beforeAll(async () => {
    await env().app.listen({ port: 0, host: "127.0.0.1" });
    port = (env().app.server.address() as AddressInfo).port;
    owner = env().client();
    await owner.signUpAndPassIntro();
    signedIn = {
      cookie: `session=${owner.cookie("session")}`,
      "x-requested-with": "XMLHttpRequest",
      "x-identification": owner.identification,
    };
  });

  it("answers the three requests that used to get a reset: 400, 413 and 404 in the error shape", async () => {
    for (const [who, headers] of [
      ["signed in", signedIn],
      ["signed out", {}],
    ] as const) {
      for (const connection of ["keep-alive", "close"]) {
        const emptyJson = await send(port, {
          method: "PUT",
          path: "/api/widget-alerts/0",
          headers: { ...headers, connection, "content-type": "application/json" },
          body: Buffer.alloc(0),
        });
        const large = await send(port, {
          method: "DELETE",
          path: "/api/campaigns/0",
          headers: { ...headers, connection, "content-type": "application/json" },
          body: THREE_MB,
        });
        const callback = await send(port, { method: "GET", path: "/api/oauth/0/callback", headers: { connection } });
        if (who === "signed in") {
          expect(emptyJson.status).toBe(400);
          expect(expectErrorShape(emptyJson).code).toBe("bad_request");
          expect(large.status).toBe(413);
          expect(expectErrorShape(large)).toEqual({ code: "payload_too_large", message: "The request is too large." });
        } else {
          // Without a session the 401 comes first, before the body is read: the answer still arrives.
          expect(expectErrorShape(emptyJson).code).toBe("unauthenticated");
          expect(expectErrorShape(large).code).toBe("unauthenticated");
          expect([emptyJson.status, large.status]).toEqual([401, 401]);
        }
        expect(callback.status).toBe(404);
        expect(expectErrorShape(callback).code).toBe("not_found");
      }
    }
  });

  it("answers a generated batch of bad requests completely, each below 500 and in the error shape", async () => {
    const doc = env().app.swagger() as { paths: Record<string, Record<string, unknown>> };
    // Two routes act on a request with no usable body (cancelling the company, signing out): left out.
    const routes = Object.entries(doc.paths)
      .flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => ({ method: method.toUpperCase(), path })),
      )
      .filter(({ method, path }) => !(method === "DELETE" && path === "/api/company") && path !== "/logout");
    expect(routes.length).toBeGreaterThan(50);

    // Bodies no route accepts: empty or broken JSON, too large, of a type nobody reads, NUL in JSON.
    // Described by type and text or size (a failure prints that), made into bytes when sent.
    const tooLarge = fc.integer({ min: 2 * 1024 * 1024 + 1, max: THREE_MB.length });
    type BadBody = { type: string; text?: string; size?: number };
    const badBody: fc.Arbitrary<BadBody> = fc.oneof(
      fc.constant({ type: "application/json", text: "" }),
      fc.string({ maxLength: 30 }).map((text) => ({ type: "application/json", text: `{"a":${text}` })),
      tooLarge.map((size) => ({ type: "application/json", size })),
      tooLarge.map((size) => ({ type: "text/plain", size })),
      fc.constant({ type: "application/json", text: '{"name":"\\u0000"}' }),
      fc.constant({ type: "application/x-unknown", text: "<x/>" }),
    );
    const bytesOf = (bad: BadBody) =>
      bad.size !== undefined ? THREE_MB.subarray(0, bad.size) : Buffer.from(bad.text ?? "");
    const junkId = fc.oneof(fc.constantFrom("0", "-1", "%00", "..", "a%2Fb"), fc.stringMatching(/^[a-z0-9]{1,12}$/));
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        junkId,
        badBody,
        fc.boolean(),
        fc.constantFrom("keep-alive", "close"),
        async (route, id, bad, signed, connection) => {
          const path = route.path.replace(/\{[^}]+\}/g, id);
          const answer = await send(port, {
            method: route.method,
            path,
            headers: { ...(signed ? signedIn : {}), connection, "content-type": bad.type },
            body: bytesOf(bad),
          });
          seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
          expect(answer.status).toBeGreaterThanOrEqual(200);
          expect(answer.status).toBeLessThan(500);
          if (answer.status >= 400 && answer.headers["content-type"]?.includes("json")) expectErrorShape(answer);
          if (bad.size !== undefined && answer.status !== 401 && route.method !== "GET") {
            // A route that reads more than the app's 2 MB reads these bytes: as JSON they are broken (400); as
            // text (Fastify reads text/plain for every route) they are a string where the route's schema
            // wants an object, refused per field (422).
            const large = bad.type === "text/plain" ? [422] : [400, 415];
            const expected = LARGE_BODY_ROUTES.has(`${route.method} ${route.path}`) ? large : [404, 413, 415, 419];
            expect(expected).toContain(answer.status);
          }
        },
      ),
      { numRuns: 40 },
    );
    // The batch reached past authentication and body checks, not only the early 401s.
    expect([...seen.keys()].some((status) => status !== 401)).toBe(true);
  });
});
