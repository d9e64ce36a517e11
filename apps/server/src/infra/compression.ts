import { PassThrough, type Transform } from "node:stream";
import zlib from "node:zlib";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** Answers below this size go out as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

/** JSON answers and the SPA's HTML (with its inlined page data); files carry their own encoding. */
const COMPRESSIBLE = /^(application\/(?:[\w.+-]*\+)?json|text\/html)/;

type Encoding = "br" | "gzip";

/**
 * The client's preferred encoding among brotli and gzip (`q=0` refuses one), or null for identity.
 * Brotli wins a tie: it is smaller at the same speed for text.
 */
export function negotiateEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  let best: Encoding | null = null;
  let bestQ = 0;
  for (const part of header.split(",")) {
    const [rawName, ...params] = part.trim().split(";");
    const name = rawName.trim().toLowerCase();
    const encoding: Encoding | null = name === "br" ? "br" : name === "gzip" || name === "x-gzip" ? "gzip" : null;
    if (!encoding) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split("=");
      if (key === "q") q = Number(value);
    }
    if (!(q > 0)) continue;
    if (q > bestQ || (q === bestQ && encoding === "br")) {
      best = encoding;
      bestQ = q;
    }
  }
  return best;
}

function compress(encoding: Encoding, input: Buffer, done: (error: Error | null, output: Buffer) => void) {
  if (encoding === "br") {
    // Quality 4: per-request work stays near gzip's cost while the output is smaller (11 is for build time).
    zlib.brotliCompress(
      input,
      {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: input.length,
        },
      },
      done,
    );
  } else {
    zlib.gzip(input, { level: 6 }, done);
  }
}

function addVary(reply: FastifyReply) {
  const vary = reply.getHeader("vary");
  if (!vary) reply.header("vary", "accept-encoding");
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(String(vary)))
    reply.header("vary", `${vary}, accept-encoding`);
}

/**
 * Compresses JSON and HTML answers of at least COMPRESS_MIN_BYTES for clients that accept brotli or
 * gzip. Everything else (small answers, streams, files, clients without the header) leaves after a few
 * comparisons, so the hot path of small cached answers pays nothing measurable. The work runs on
 * libuv's thread pool, off the event loop.
 */
export function registerCompression(app: FastifyInstance) {
  app.addHook(
    "onSend",
    (
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (error: Error | null, payload?: unknown) => void,
    ) => {
      if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return done(null, payload);
      if (payload.length < COMPRESS_MIN_BYTES) return done(null, payload);
      if (reply.statusCode === 204 || reply.statusCode === 304 || reply.hasHeader("content-encoding"))
        return done(null, payload);
      if (!COMPRESSIBLE.test(String(reply.getHeader("content-type") ?? ""))) return done(null, payload);
      addVary(reply);
      const encoding = negotiateEncoding(request.headers["accept-encoding"]);
      if (!encoding) return done(null, payload);
      const input = typeof payload === "string" ? Buffer.from(payload) : payload;
      compress(encoding, input, (error, output) => {
        if (error) return done(error);
        reply.header("content-encoding", encoding);
        reply.removeHeader("content-length");
        done(null, output);
      });
    },
  );
}

/**
 * A text answer sent as it is written (a page whose head leaves before its body is rendered), compressed
 * as `registerCompression` compresses whole answers; `flush` sends what was written so far.
 */
export function streamedAnswer(request: FastifyRequest, reply: FastifyReply): { stream: Transform; flush: () => void } {
  addVary(reply);
  const encoding = negotiateEncoding(request.headers["accept-encoding"]);
  if (!encoding) return { stream: new PassThrough(), flush: () => {} };
  reply.header("content-encoding", encoding);
  const stream =
    encoding === "br"
      ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
      : zlib.createGzip({ level: 6 });
  return { stream, flush: () => stream.flush() };
}
