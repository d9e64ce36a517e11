import type { AddressInfo } from "node:net";
import { REALTIME_EVENTS, type RealtimeMessage, type TCompanySourceUpdated } from "@app/core";
import Echo from "laravel-echo";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";

/**
 * Standard realtime clients (docs/product.md §7, "Realtime"): Laravel Echo's Socket.IO connector, and
 * the `private-company.{id}` spelling that Echo and Pusher clients give the company channel.
 */

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The Socket.IO client socket under Echo's connector (socket.io-client's own type, with emitWithAck). */
function socketOf(echo: Echo<"socket.io">): Socket {
  return (echo.connector as unknown as { socket: Socket }).socket;
}

const quiet = () => new Promise((resolve) => setTimeout(resolve, 300));

describeEachDb("realtime through Laravel Echo and the private- spelling", (env: () => TestEnv) => {
  let base = "";
  const echoes: Array<Echo<"socket.io">> = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    await env().app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(env().app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    for (const echo of echoes) echo.disconnect();
    for (const socket of sockets) socket.disconnect();
  });

  /** Laravel Echo as an app would set it up, with the browser's session cookie on the handshake. */
  async function connectEcho(client: TestClient): Promise<Echo<"socket.io">> {
    const echo = new Echo<"socket.io">({
      broadcaster: "socket.io",
      host: base,
      client: io,
      transports: ["websocket"],
      reconnection: false,
      extraHeaders: { cookie: `session=${client.cookie("session")}` },
    });
    echoes.push(echo);
    const socket = socketOf(echo);
    if (!socket.connected) {
      await new Promise<void>((resolve, reject) => {
        socket.once("connect", () => resolve());
        socket.once("connect_error", reject);
      });
    }
    return echo;
  }

  /** Echo's subscribe has no acknowledgement: a later message with one, on the same socket, has been handled after it. */
  async function settled(echo: Echo<"socket.io">) {
    expect(await socketOf(echo).emitWithAck("subscribe", null, null)).toEqual({ ok: false, error: "invalid" });
  }

  it("an Echo client subscribed with echo.private('company.{id}') receives the event pushed to the company", async () => {
    const owner = env().client();
    const { company } = await owner.signUpAndPassIntro();
    const echo = await connectEcho(owner);
    const heard: TCompanySourceUpdated[] = [];
    // A leading dot: the event's own name, without Echo's `App\Events` namespace.
    echo.private(`company.${company.id}`).listen(`.${REALTIME_EVENTS.sourceUpdated}`, (data: TCompanySourceUpdated) => {
      heard.push(data);
    });
    await settled(echo);

    const created = await owner.api("POST", "/api/sources", { name: "demo" });
    expect(created.statusCode).toBe(200);
    await until(() => heard.length === 1);
    expect(heard[0].id).toBe(created.json().data.id);
    expect(heard[0].sources).toEqual((await owner.api("GET", "/api/sources")).json().data);

    // Echo's X-Socket-Id: the change that page causes is not echoed back to it.
    const deleted = await owner.api("DELETE", `/api/sources/${heard[0].id}`, undefined, {
      "x-socket-id": String(echo.socketId()),
    });
    expect(deleted.statusCode).toBe(204);
    await quiet();
    expect(heard).toHaveLength(1);

    // Leaving the channel stops the events.
    echo.leave(`company.${company.id}`);
    await settled(echo);
    expect((await owner.api("POST", "/api/sources", { name: "demo" })).statusCode).toBe(200);
    await quiet();
    expect(heard).toHaveLength(1);
  });

  it("another company's Echo client is refused and hears nothing", async () => {
    const owner = env().client();
    const { company } = await owner.signUpAndPassIntro();
    const stranger = env().client();
    await stranger.signUpAndPassIntro();
    const echo = await connectEcho(stranger);
    const errors: unknown[][] = [];
    socketOf(echo).on("subscription_error", (...args: unknown[]) => errors.push(args));
    const heard: unknown[] = [];
    echo.private(`company.${company.id}`).listen(`.${REALTIME_EVENTS.sourceUpdated}`, (data: unknown) => {
      heard.push(data);
    });
    echo.channel(`company.${company.id}`).listen(`.${REALTIME_EVENTS.sourceUpdated}`, (data: unknown) => {
      heard.push(data);
    });
    await settled(echo);
    expect(errors).toEqual([
      [`private-company.${company.id}`, 403],
      [`company.${company.id}`, 403],
    ]);
    expect((await owner.api("POST", "/api/sources", { name: "demo" })).statusCode).toBe(200);
    await quiet();
    expect(heard).toEqual([]);
  });

  it("/broadcasting/auth signs private-company.{id} for its members only, and the signature opens that channel", async () => {
    const owner = env().client();
    const { company } = await owner.signUpAndPassIntro();
    const stranger = env().client();
    await stranger.signUpAndPassIntro();

    const socket = io(base, {
      transports: ["websocket"],
      reconnection: false,
      extraHeaders: { cookie: `session=${owner.cookie("session")}` },
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("connect_error", reject);
    });
    const channel = `private-company.${company.id}`;
    const signed = await owner.api("POST", "/broadcasting/auth", { socket_id: socket.id, channel_name: channel });
    expect(signed.statusCode).toBe(200);
    // The form encoding Pusher's client posts is read the same way.
    const form = await owner.raw("POST", "/broadcasting/auth", {
      payload: `socket_id=${encodeURIComponent(String(socket.id))}&channel_name=${encodeURIComponent(channel)}`,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-requested-with": "XMLHttpRequest",
        "x-identification": owner.identification,
      },
    });
    expect(form.statusCode).toBe(200);
    expect(form.json()).toEqual(signed.json());
    const refused = await stranger.api("POST", "/broadcasting/auth", { socket_id: "abc", channel_name: channel });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ code: "forbidden", message: "You may not listen to this channel." });

    const messages: Array<RealtimeMessage<TCompanySourceUpdated>> = [];
    socket.on(REALTIME_EVENTS.sourceUpdated, (message: RealtimeMessage<TCompanySourceUpdated>) =>
      messages.push(message),
    );
    expect(await socket.emitWithAck("subscribe", channel, signed.json().auth)).toEqual({ ok: true });
    const created = await owner.api("POST", "/api/sources", { name: "demo" });
    await until(() => messages.length === 1);
    expect(messages[0]).toMatchObject({ channel, data: { id: created.json().data.id } });
  });
});
