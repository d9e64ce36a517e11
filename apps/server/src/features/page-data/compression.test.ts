import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { describeEachDb } from "../../../test/harness";
import { buildApp } from "../../app";
import { COMPRESS_MIN_BYTES, negotiateEncoding } from "../../infra/compression";
import { type App, SESSION_COOKIE } from "../../infra/http";

function decoded(response: LightMyRequestResponse): string {
  const body = response.rawPayload;
  switch (response.headers["content-encoding"]) {
    case "br":
      return zlib.brotliDecompressSync(body).toString("utf8");
    case "gzip":
      return zlib.gunzipSync(body).toString("utf8");
    case undefined:
      return body.toString("utf8");
    default:
      throw new Error(`unexpected encoding ${response.headers["content-encoding"]}`);
  }
}

describe("negotiateEncoding", () => {
  it.each([
    [undefined, null],
    ["", null],
    ["identity", null],
    ["gzip, deflate, br, zstd", "br"],
    ["gzip", "gzip"],
    ["x-gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["gzip;q=0", null],
    ["br;q=0.5, gzip;q=0.8", "gzip"],
    ["GZIP;Q=1, BR", "br"],
    ["deflate", null],
  ])("%j → %j", (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describeEachDb("compressed answers", (env) => {
  // A built web app of our own: a script with its build-time .br and .gz beside it, as the Vite build writes them.
  let app: App;
  let webDist: string;
  const script = `console.log(${JSON.stringify("reportz ".repeat(500))});\n`;

  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(env().dataDir, "web-"));
    fs.mkdirSync(path.join(webDist, "assets"));
    fs.writeFileSync(
      path.join(webDist, "index.html"),
      `<!doctype html><html><head><style>${".dash{color:red}".repeat(100)}</style><!--page-data--></head><body><div id=root></div></body></html>`,
    );
    const file = path.join(webDist, "assets", "app-1234.js");
    fs.writeFileSync(file, script);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(script));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(script));
    fs.writeFileSync(path.join(webDist, "assets", "tiny-1234.js"), "export{};");
    app = await buildApp(env().ctx, { webDist });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it.each([
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
  ])("built files go out precompressed to %j as %s, varying on accept-encoding", async (accept, encoding) => {
    const response = await app.inject({ url: "/assets/app-1234.js", headers: { "accept-encoding": accept } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-encoding"]).toBe(encoding);
    expect(response.headers["content-type"]).toMatch(/javascript/);
    expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
    expect(response.headers["cache-control"]).toMatch(/immutable/);
    expect(response.rawPayload.length).toBeLessThan(script.length / 4);
    expect(decoded(response)).toBe(script);
  });

  it("built files go out as they are to clients that accept no compression", async () => {
    const response = await app.inject({ url: "/assets/app-1234.js", headers: { "accept-encoding": "identity" } });
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
    expect(response.body).toBe(script);
    // A file the build left without variants still goes out, as it is.
    const tiny = await app.inject({ url: "/assets/tiny-1234.js", headers: { "accept-encoding": "br, gzip" } });
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers["content-encoding"]).toBeUndefined();
    expect(tiny.body).toBe("export{};");
  });

  it("JSON answers over the threshold are compressed for clients that accept it, and decode to the same answer", async () => {
    const { client: owner } = await buildOwner(env());
    const created = await owner.api("POST", "/api/dashboards", { name: "Overview", template: "website-overview" });
    const url = `/api/dashboards/${created.json().data.permalink}`;
    const plain = await owner.api("GET", url, undefined, { "accept-encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
    for (const [accept, encoding] of [
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
    ]) {
      const response = await owner.api("GET", url, undefined, { "accept-encoding": accept });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-encoding"]).toBe(encoding);
      expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
      expect(response.headers["content-type"]).toMatch(/application\/json/);
      expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(JSON.parse(decoded(response))).toEqual(plain.json());
    }
  });

  it("small answers are never compressed", async () => {
    const response = await env()
      .client()
      .raw("GET", "/api/health", { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(response.headers.vary).toBeUndefined();
    expect(response.json()).toEqual({ status: "ok" });
  });

  it("the app's HTML with its inlined page data is compressed too", async () => {
    const plain = await app.inject({ url: "/dashboards/anything", headers: { "accept-encoding": "identity" } });
    expect(plain.body).toContain('<script id="page-data" type="application/json">');
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    const response = await app.inject({ url: "/dashboards/anything", headers: { "accept-encoding": "br" } });
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers["content-type"]).toMatch(/text\/html/);
    // Page data carries a fresh guest identification per request: compare everything else.
    const withoutData = (html: string) => html.replace(/<script id="page-data"[\s\S]*?<\/script>/, "");
    expect(withoutData(decoded(response))).toBe(withoutData(plain.body));
    expect(decoded(response)).toContain('<script id="page-data" type="application/json">');
  });

  it("a member's dashboard page, sent as it is written (its head first), is compressed and decodes whole", async () => {
    const { client: owner } = await buildOwner(env());
    const created = await owner.api("POST", "/api/dashboards", { name: "Overview", template: "website-overview" });
    const url = `/dashboards/${created.json().data.permalink}`;
    const cookie = `${SESSION_COOKIE}=${owner.cookie(SESSION_COOKIE)}`;
    const plain = await app.inject({ url, headers: { cookie, "accept-encoding": "identity" } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["content-type"]).toMatch(/text\/html/);
    expect(plain.headers["cache-control"]).toBe("no-store");
    // This build has no server bundle: the app's page, whole, its root with what the app paints first.
    expect(plain.body).toMatch(/<div id=root><\/div><\/body><\/html>$/);
    for (const [accept, encoding] of [
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
    ]) {
      const response = await app.inject({ url, headers: { cookie, "accept-encoding": accept } });
      expect(response.headers["content-encoding"]).toBe(encoding);
      expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
      expect(decoded(response)).toBe(plain.body);
    }
  });
});
