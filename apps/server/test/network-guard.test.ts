import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
// @ts-expect-error s3rver ships no types; only its constructor, run() and close() are used here.
import S3rver from "s3rver";
import { Server as SocketServer } from "socket.io";
import { io as ioClient } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLoopback, takeStrays } from "./network-guard";

const here = path.dirname(fileURLToPath(import.meta.url));

function nodeGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => {
        body += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
  });
}

describe("outbound network guard", () => {
  let local: http.Server;
  let port = 0;
  beforeAll(async () => {
    local = http.createServer((request, response) => response.end(`local ${request.method} ${request.url}`));
    await new Promise<void>((resolve) => local.listen(0, "127.0.0.1", resolve));
    port = (local.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => local.close(() => resolve())));

  it("refuses fetch to a host that is not loopback, and records it so the test fails", async () => {
    await expect(fetch("https://example.com/")).rejects.toThrow();
    expect(takeStrays()).toEqual(["GET https://example.com/"]);
  });

  it("refuses node:http to a host that is not loopback, and records it", async () => {
    await expect(nodeGet("http://example.org/path?q=1")).rejects.toThrow();
    expect(takeStrays()).toEqual(["GET http://example.org/path?q=1"]);
  });

  it("lets fetch and node:http reach a local server on 127.0.0.1 and localhost", async () => {
    const viaFetch = await fetch(`http://127.0.0.1:${port}/a?b=1`, { method: "POST", body: "x" });
    expect(await viaFetch.text()).toBe("local POST /a?b=1");
    expect(await nodeGet(`http://localhost:${port}/c`)).toEqual({ status: 200, body: "local GET /c" });
    expect(takeStrays()).toEqual([]);
  });

  it.each([["websocket"], ["polling"]])("lets Socket.IO over %s reach a local server", async (transport) => {
    const io = new SocketServer();
    io.on("connection", (socket) =>
      socket.on("ping", (text: string, reply: (t: string) => void) => reply(`pong ${text}`)),
    );
    io.listen(0);
    const { port: ioPort } = io.httpServer.address() as AddressInfo;
    const client = ioClient(`http://127.0.0.1:${ioPort}`, { transports: [transport], reconnection: false });
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        client.on("connect_error", reject);
        client.on("connect", () => client.emit("ping", "hi", resolve));
      });
      expect(answer).toBe("pong hi");
    } finally {
      client.close();
      await io.close();
    }
    expect(takeStrays()).toEqual([]);
  });

  it("lets the AWS S3 client reach a local S3 server (s3rver) on 127.0.0.1", async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "guard-s3-"));
    const s3 = new S3rver({
      address: "127.0.0.1",
      port: 0,
      silent: true,
      directory,
      configureBuckets: [{ name: "reports" }],
    });
    const { port: s3Port } = (await s3.run()) as AddressInfo;
    const client = new S3Client({
      endpoint: `http://127.0.0.1:${s3Port}`,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    try {
      await client.send(new PutObjectCommand({ Bucket: "reports", Key: "a.txt", Body: "hello" }));
      const got = await client.send(new GetObjectCommand({ Bucket: "reports", Key: "a.txt" }));
      expect(await got.Body?.transformToString()).toBe("hello");
    } finally {
      client.destroy();
      await s3.close();
      fs.rmSync(directory, { recursive: true, force: true });
    }
    expect(takeStrays()).toEqual([]);
  });

  it.each([
    ["http://127.0.0.1:9/", true],
    ["http://127.1.2.3/", true],
    ["https://localhost/", true],
    ["http://[::1]:80/", true],
    ["http://127.0.0.1.example.com/", false],
    ["http://localhost.example.com/", false],
    ["http://10.0.0.1/", false],
    ["https://api.stripe.com/v1", false],
  ])("isLoopback(%s) is %s", (url, expected) => {
    expect(isLoopback(url)).toBe(expected);
  });
});

describe("outbound network guard: a test that swallows the refusal still fails", () => {
  it("fails the fixture's two stray tests and passes its loopback one", async () => {
    const config = path.join(here, "fixtures/network-guard/vitest.config.ts");
    const vitestBin = path.join(here, "../../../node_modules/vitest/vitest.mjs");
    const result = await runNode([vitestBin, "run", "--config", config, "--reporter=json"]);
    expect(result.code).not.toBe(0);
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf("{")));
    const tests = report.testResults.flatMap(
      (file: { assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }) =>
        file.assertionResults,
    );
    const outcome = Object.fromEntries(tests.map((t: { title: string; status: string }) => [t.title, t.status]));
    expect(outcome).toEqual({
      "swallows a refused fetch": "failed",
      "swallows a refused node:http request": "failed",
      "talks to its own server on 127.0.0.1": "passed",
    });
    const messages = tests.flatMap((t: { failureMessages: string[] }) => t.failureMessages).join("\n");
    expect(messages).toContain("not loopback");
    expect(messages).toContain("GET https://api.example.com/v1/report");
    expect(messages).toContain("GET http://203.0.113.7/metrics");
  });
});

function runNode(args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: path.join(here, "../../.."),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout }));
  });
}
