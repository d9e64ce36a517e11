import type { DomainMetricKey } from "@app/core";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { z } from "zod";

/**
 * The provider fakes (docs/connectors.md, "Fakes"): one local Fastify server, one plugin per provider,
 * answering on 127.0.0.1 in the shapes each provider documents. Tests start the parts they need
 * (`startFakes({ google: googleFake(), meta: metaFake() })`); `npm run dev:fakes` starts all of them
 * so the product can be tried by hand with every connector.
 *
 * Every part owns its routes. Paths never collide because they are the providers' own (Google's
 * `/v1beta/properties/…`, Ads' `/v21/customers/…`, Meta's `/v23.0/…`): the server's base URL
 * variables all point at this one origin.
 */

/** One request as the fake saw it, for tests that assert a request's shape. */
export interface FakeCall {
  method: string;
  /** The path and query as sent, still encoded (a Search Console site's slashes are %2F in its segment). */
  url: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** The body as sent (JSON text or form), "" when none. */
  body: string;
  /** The fake's answer once sent: its status and body text (what the description checks compare). */
  answer?: { status: number; body: string };
}

/** A scripted fault: the next matching request gets this answer instead of the normal one. */
export interface FakeFault {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Only requests whose path contains this text take the fault; absent means the part's next data call. */
  pathIncludes?: string;
}

/** One provider's fake: its routes, the state tests read and steer, and the server variables pointing at it. */
export interface FakePart<State> {
  state: State;
  register(app: FastifyInstance, shared: FakeShared): void | Promise<void>;
  /** Environment variables a server needs to use this part, given the fakes' origin. */
  env(origin: string): Record<string, string>;
}

/**
 * A provider fake as its connector's (or its family's) folder declares it, in `fake.ts` as `fakeEntry`:
 * the part's name (what the tests and `POST /_fake/fail` call it), the part it builds on (a family's
 * shared state: Google's tokens, Meta's users) and how it is built from the parts built before it.
 */
/**
 * What a connector's fake gives Mission Control for a domain on a day (catalogue metric → value), or null
 * where it gives nothing (a day its tracker did not check, a domain it does not cover). The fake.ts of a
 * connector with domain metrics exports it as `fakeDomainDay`, for tests that combine several
 * connectors' domain metrics and pick them by what they declare (features/campaigns/providers/connected.test.ts).
 */
export type FakeDomainDay = (domain: string, day: string) => Partial<Record<DomainMetricKey, number | null>> | null;

export interface FakeEntry {
  name: string;
  after?: string;
  build(parts: Readonly<Record<string, FakePart<unknown>>>): FakePart<unknown>;
}

/** What every part sees of the running app. */
export interface FakeShared {
  /** Every request, in order. */
  calls: FakeCall[];
  /** The origin once listening (http://127.0.0.1:port). */
  origin(): string;
}

export interface RunningFakes<Parts extends Record<string, FakePart<unknown>>> {
  url: string;
  /** Every part's variables together: pass them to the server under test. */
  env: Record<string, string>;
  calls: FakeCall[];
  parts: { [K in keyof Parts]: Parts[K]["state"] };
  close(): Promise<void>;
}

/** The raw body a parser saw, kept for `calls`. */
const RAW = Symbol("raw body");
type WithRaw = FastifyRequest & { [RAW]?: string };
/** The call a request was recorded as, for its answer. */
const CALL = Symbol("call");
type WithCall = FastifyRequest & { [CALL]?: FakeCall };

/** A health check for process managers (Playwright's webServer waits for it). */
export const HEALTH_PATH = "/health";

export async function startFakes<Parts extends Record<string, FakePart<unknown>>>(
  parts: Parts,
  port = 0,
): Promise<RunningFakes<Parts>> {
  const calls: FakeCall[] = [];
  let origin = "";
  const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });
  app.removeAllContentTypeParsers();
  // Bodies are kept as sent (tests assert them) and parsed for the routes: JSON, forms, anything else as text.
  app.addContentTypeParser("*", { parseAs: "string" }, (request, body, done) => {
    const text = String(body);
    (request as WithRaw)[RAW] = text;
    const type = String(request.headers["content-type"] ?? "");
    try {
      if (type.includes("application/json")) return done(null, text === "" ? {} : JSON.parse(text));
      if (type.includes("application/x-www-form-urlencoded")) {
        return done(null, Object.fromEntries(new URLSearchParams(text)));
      }
      done(null, text);
    } catch {
      // The providers answer a body that is not JSON with 400; so does the fake.
      const error = new Error("Invalid JSON payload received.") as Error & { statusCode: number };
      error.statusCode = 400;
      done(error, undefined);
    }
  });
  app.addHook("preHandler", async (request) => {
    const url = new URL(request.url, "http://fake");
    const call: FakeCall = {
      method: request.method,
      url: request.url,
      path: decodeURIComponent(url.pathname),
      query: Object.fromEntries(url.searchParams),
      headers: { ...request.headers },
      body: (request as WithRaw)[RAW] ?? "",
    };
    (request as WithCall)[CALL] = call;
    calls.push(call);
  });
  app.addHook("onSend", async (request, reply, payload) => {
    const call = (request as WithCall)[CALL];
    if (call) call.answer = { status: reply.statusCode, body: typeof payload === "string" ? payload : "" };
    return payload;
  });
  app.get(HEALTH_PATH, async () => ({ ok: true }));
  registerFailSwitch(app, parts);
  const shared: FakeShared = { calls, origin: () => origin };
  for (const part of Object.values(parts)) await part.register(app, shared);
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) =>
    reply.code(404).send({ error: { code: 404, message: `No fake answers ${request.method} ${request.url}` } }),
  );
  await app.listen({ port, host: "127.0.0.1" });
  const address = app.server.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : port}`;
  const env = Object.assign({}, ...Object.values(parts).map((part) => part.env(origin))) as Record<string, string>;
  return {
    url: origin,
    env,
    calls,
    parts: Object.fromEntries(Object.entries(parts).map(([key, part]) => [key, part.state])) as {
      [K in keyof Parts]: Parts[K]["state"];
    },
    close: () => app.close(),
  };
}

/** What `POST /_fake/fail` takes: a part's name, the path text its faults are for, the answer, how many. */
const ZFailRequest = z.object({
  part: z.string(),
  path: z.string().optional(),
  status: z.number().int().min(100).max(599),
  /** JSON, or a string sent as it is (a malformed answer: `{"rows": [`). */
  body: z.unknown().default(""),
  headers: z.record(z.string(), z.string()).optional(),
  count: z.number().int().min(1).max(100).default(1),
});

/**
 * The failure switch over HTTP, for trying failures by hand under `npm run dev:fakes` (the browser tests'
 * fake runs in its own process too): `POST /_fake/fail` queues `count` faults on a part's `failNext`
 * (429 with Retry-After, RESOURCE_EXHAUSTED, a 5xx, a 200 with a broken body), each taken by the next
 * request whose path contains `path`; `DELETE /_fake/fail` drops every queued fault.
 */
function registerFailSwitch(app: FastifyInstance, parts: Record<string, FakePart<unknown>>) {
  const faultsOf = (name: string): FakeFault[] | null => {
    const state = parts[name]?.state;
    if (typeof state !== "object" || state === null || !("failNext" in state)) return null;
    return Array.isArray(state.failNext) ? (state.failNext as FakeFault[]) : null;
  };
  const switchable = () => Object.keys(parts).filter((name) => faultsOf(name) !== null);
  app.post("/_fake/fail", async (request, reply) => {
    const parsed = ZFailRequest.safeParse(request.body);
    if (!parsed.success) {
      return reply
        .code(400)
        .send({ error: "body: { part, path?, status, body?, headers?, count? }", parts: switchable() });
    }
    const { part, path, status, body, headers, count } = parsed.data;
    const faults = faultsOf(part);
    if (!faults) return reply.code(404).send({ error: `no part "${part}" with faults`, parts: switchable() });
    for (let index = 0; index < count; index++) {
      faults.push({ status, body, ...(headers && { headers }), ...(path && { pathIncludes: path }) });
    }
    return { part, queued: faults.length };
  });
  app.delete("/_fake/fail", async () => {
    for (const name of switchable()) faultsOf(name)?.splice(0);
    return { cleared: switchable() };
  });
}

/** The first scripted fault for this path, taken off the list; null when none applies. */
export function takeFault(faults: FakeFault[], path: string): FakeFault | null {
  const index = faults.findIndex((fault) => !fault.pathIncludes || path.includes(fault.pathIncludes));
  if (index < 0) return null;
  const [fault] = faults.splice(index, 1);
  return fault ?? null;
}

/** Answers a scripted fault. */
export function sendFault(reply: FastifyReply, fault: FakeFault) {
  return reply
    .code(fault.status)
    .headers({ "content-type": "application/json; charset=UTF-8", ...(fault.headers ?? {}) })
    .send(typeof fault.body === "string" ? fault.body : JSON.stringify(fault.body));
}

/**
 * Starts the given parts once per test file, on first use, and closes them after the file's tests:
 * pass `fakes.env` to describeEachDb's env factory and read `(await fakes.current()).parts` in tests.
 */
export function fakesForFile<Parts extends Record<string, FakePart<unknown>>>(
  afterAll: (fn: () => Promise<void>) => void,
  make: () => Parts,
) {
  let running: Promise<RunningFakes<Parts>> | null = null;
  const current = (): Promise<RunningFakes<Parts>> => {
    running ??= startFakes(make());
    return running;
  };
  afterAll(async () => {
    await (await running)?.close();
  });
  return { current, env: async () => ({ ...(await current()).env }) };
}
