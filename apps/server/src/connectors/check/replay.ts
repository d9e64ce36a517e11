import http from "node:http";
import type { AddressInfo } from "node:net";
import type { RecordedExchange, Recording } from "./run";

/**
 * Serves recordings (`npm run connectors:check -- --record`) on 127.0.0.1 as the provider would: a test
 * points the server's provider addresses here and replays a query that once ran against the real API.
 * A request is matched by method, path (its end: a fake's or the real base address may prefix it), query
 * and body; credentials in the query are not compared (the replayed source carries placeholders).
 */
export interface Replay {
  origin: string;
  /** Requests nothing recorded matched, as "METHOD path?query". */
  unmatched: string[];
  close(): Promise<void>;
}

const IGNORED = /^(key|token|access_token|api_key|apikey|appsecret_proof|consumer_key|consumer_secret)$/i;

function comparable(address: string): { path: string; query: string } {
  const url = new URL(address, "http://replay.invalid");
  const query = [...url.searchParams]
    .filter(([name]) => !IGNORED.test(name))
    .sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  return { path: decodeURIComponent(url.pathname), query };
}

/** A JSON body without its top-level `id`: a JSON-RPC call's id counts calls, it is no part of the question. */
function withoutCallId(text: string): string {
  const parsed = JSON.parse(text);
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) delete parsed.id;
  return JSON.stringify(parsed);
}

const sameBody = (a: string | undefined, b: string) => {
  if ((a ?? "") === b) return true;
  try {
    return withoutCallId(a ?? "") === withoutCallId(b);
  } catch {
    return false;
  }
};

/** The recorded answer, its JSON-RPC id set to the one asked with (clients match answers to calls by it). */
function answerFor(found: RecordedExchange, asked: string): unknown {
  if (!found.body || typeof found.body !== "object" || Array.isArray(found.body) || !("id" in found.body)) {
    return found.body;
  }
  try {
    const id = (JSON.parse(asked) as { id?: unknown }).id;
    return id === undefined ? found.body : { ...found.body, id };
  } catch {
    return found.body;
  }
}

export async function startReplay(recordings: readonly Recording[]): Promise<Replay> {
  const exchanges: RecordedExchange[] = recordings.flatMap((recording) => recording.exchanges);
  const used = new Set<RecordedExchange>();
  const unmatched: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const asked = comparable(request.url ?? "/");
      const samePath = exchanges.filter((exchange) => {
        if (exchange.method !== request.method) return false;
        const recorded = comparable(exchange.url).path;
        return asked.path.endsWith(recorded) || recorded.endsWith(asked.path);
      });
      const candidates = samePath.filter((exchange) => comparable(exchange.url).query === asked.query);
      // The same request may have been recorded more than once (paging asks again): first unused, then
      // any; failing that, the same path asked with other parameters (a list asked for one of its items).
      const found =
        candidates.find((exchange) => !used.has(exchange) && sameBody(exchange.requestBody, body)) ??
        candidates.find((exchange) => sameBody(exchange.requestBody, body)) ??
        candidates.find((exchange) => !used.has(exchange)) ??
        (body === "" ? samePath[0] : undefined);
      if (!found) {
        unmatched.push(`${request.method} ${request.url}`);
        response.writeHead(404, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: "nothing recorded for this request" }));
        return;
      }
      used.add(found);
      const answer = answerFor(found, body);
      const text = typeof answer === "string" ? answer : answer === null ? "" : JSON.stringify(answer);
      const type =
        found.headers["content-type"] ?? (typeof found.body === "string" ? "text/plain" : "application/json");
      response.writeHead(found.status, { ...found.headers, "content-type": type });
      response.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    unmatched,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
