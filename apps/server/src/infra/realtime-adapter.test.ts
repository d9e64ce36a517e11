import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { Server } from "socket.io";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisSocketAdapter, type SocketAdapter } from "./realtime-adapter";

const hasRedis = (() => {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** A throwaway redis-server on a free port (scripts/ensure-services.sh installs it), in the foreground so the test owns it. */
async function startRedis(): Promise<{ url: string; stop(): void }> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const child: ChildProcess = spawn(
    "redis-server",
    ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 5000;
  for (;;) {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      break;
    } catch (error) {
      client.disconnect();
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { url, stop: () => child.kill("SIGTERM") };
}

describe.skipIf(!hasRedis)("Socket.IO Redis adapter (distributed realtime)", () => {
  let redis: { url: string; stop(): void };
  const nodes: Array<{ http: HttpServer; io: Server; adapter: SocketAdapter; url: string }> = [];
  const clients: Socket[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    for (let i = 0; i < 2; i++) {
      const adapter = createRedisSocketAdapter(redis.url);
      const http = createServer();
      const io = new Server(http, { adapter: adapter.adapter });
      await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
      nodes.push({ http, io, adapter, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` });
    }
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    for (const node of nodes) {
      await node.io.close();
      await node.adapter.close();
    }
    redis?.stop();
  });

  it("lets one process see and act on the sockets of another", async () => {
    for (const node of nodes) {
      const client = connect(node.url, { transports: ["websocket"], reconnection: false });
      clients.push(client);
      await new Promise<void>((resolve, reject) => {
        client.once("connect", () => resolve());
        client.once("connect_error", reject);
      });
    }
    for (const node of nodes) node.io.on("connection", (socket) => void socket.join("company.c1"));
    // Sockets connected before the handler above: join them now, each on its own node.
    for (const node of nodes) for (const socket of node.io.of("/").sockets.values()) await socket.join("company.c1");

    const seen = await nodes[0].io.in("company.c1").fetchSockets();
    expect(seen.map((socket) => socket.id).sort()).toEqual(clients.map((client) => client.id).sort());

    const closed = new Promise<string>((resolve) => clients[1].once("disconnect", resolve));
    nodes[0].io.in(String(clients[1].id)).disconnectSockets(true);
    expect(await closed).toBe("io server disconnect");
  });
});
