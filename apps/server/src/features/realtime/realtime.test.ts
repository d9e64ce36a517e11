import type { AddressInfo } from "node:net";
import { companyChannel, REALTIME_EVENTS, type RealtimeMessage, type TCompanySourceUpdated } from "@app/core";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { buildApp } from "../../app";
import type { App } from "../../infra/http";
import { sha256 } from "../../infra/security";

const QUIET_MS = 300;

async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** A browser's socket: the session cookie on the websocket handshake, as the browser sends it. */
async function openSocket(base: string, client: TestClient | null): Promise<Socket> {
  const cookie = client?.cookie("session");
  const socket = connect(base, {
    path: "/socket.io",
    transports: ["websocket"],
    reconnection: false,
    extraHeaders: cookie ? { cookie: `session=${cookie}` } : {},
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}

/** Authorises the company channel at /broadcasting/auth and subscribes with the signature, like the web client. */
async function subscribe(client: TestClient, socket: Socket, companyId: string) {
  const channel = companyChannel(companyId);
  const authorised = await client.api("POST", "/broadcasting/auth", { socket_id: socket.id, channel_name: channel });
  expect(authorised.statusCode).toBe(200);
  const ack = await socket.emitWithAck("subscribe", channel, authorised.json().auth);
  expect(ack).toEqual({ ok: true });
}

/** Every message of one event a socket receives, from now on. */
function record<T>(socket: Socket, event: string): Array<RealtimeMessage<T>> {
  const messages: Array<RealtimeMessage<T>> = [];
  socket.on(event, (message: RealtimeMessage<T>) => messages.push(message));
  return messages;
}

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const quiet = () => new Promise((resolve) => setTimeout(resolve, QUIET_MS));

describeEachDb("realtime to browsers", (env: () => TestEnv) => {
  let base = "";
  let second: App | null = null;
  let secondBase = "";
  const sockets: Socket[] = [];
  const open = async (client: TestClient | null, at = base) => {
    const socket = await openSocket(at, client);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    base = await listen(env().app);
    // A second web process: its own HTTP and Socket.IO servers over the same database and event bus.
    second = await buildApp(env().ctx, { webDist: "/nonexistent" });
    secondBase = await listen(second);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await second?.close();
  });

  it("delivers CompanySourceUpdated to the company's subscribed browsers, except the one that caused it", async () => {
    const owner = env().client();
    const { email, password, company } = await owner.signUpAndPassIntro();
    const otherTab = env().client();
    expect((await otherTab.login(email, password)).statusCode).toBe(200);

    const watching = await open(owner);
    await subscribe(owner, watching, company.id);
    const causing = await open(otherTab);
    await subscribe(otherTab, causing, company.id);
    const seen = record<TCompanySourceUpdated>(watching, REALTIME_EVENTS.sourceUpdated);
    const echoed = record<TCompanySourceUpdated>(causing, REALTIME_EVENTS.sourceUpdated);

    const created = await otherTab.api("POST", "/api/sources", { name: "demo" }, { "x-socket-id": String(causing.id) });
    expect(created.statusCode).toBe(200);
    const source = created.json().data;
    await until(() => seen.length === 1);
    expect(seen[0].channel).toBe(companyChannel(company.id));
    expect(seen[0].data.id).toBe(source.id);
    // The sources exactly as the sources API presents them.
    expect(seen[0].data.sources).toEqual((await owner.api("GET", "/api/sources")).json().data);

    // Reconnected, then deleted: each a new event with the sources as they are now.
    expect(
      (await otherTab.api("PUT", `/api/sources/${source.id}`, {}, { "x-socket-id": String(causing.id) })).statusCode,
    ).toBe(200);
    await until(() => seen.length === 2);
    expect((await otherTab.api("DELETE", `/api/sources/${source.id}`)).statusCode).toBe(204);
    await until(() => seen.length === 3);
    expect(seen[2].data).toEqual({ sources: [], id: source.id });
    await until(() => echoed.length === 1);
    await quiet();
    // The causing browser heard only the change it did not make (the delete, sent without its socket id).
    expect(echoed.map((message) => message.data.sources.length)).toEqual([0]);
  });

  it("refuses another company's user at /broadcasting/auth and on subscribe, who never hears the event", async () => {
    const owner = env().client();
    const { company } = await owner.signUpAndPassIntro();
    const stranger = env().client();
    const { company: strangerCompany } = await stranger.signUpAndPassIntro();

    const own = await open(owner);
    await subscribe(owner, own, company.id);
    const intruder = await open(stranger);
    const refused = await stranger.api("POST", "/broadcasting/auth", {
      socket_id: intruder.id,
      channel_name: companyChannel(company.id),
    });
    expect(refused.statusCode).toBe(403);
    // A signature for the stranger's own channel, or a made-up one, opens no other channel.
    const ownSignature = (
      await stranger.api("POST", "/broadcasting/auth", {
        socket_id: intruder.id,
        channel_name: companyChannel(strangerCompany.id),
      })
    ).json().auth;
    expect(await intruder.emitWithAck("subscribe", companyChannel(company.id), ownSignature)).toEqual({
      ok: false,
      error: "forbidden",
    });
    expect(await intruder.emitWithAck("subscribe", companyChannel(company.id), "forged")).toMatchObject({ ok: false });
    // The owner's signature was made for the owner's socket: useless on the intruder's.
    const ownerSignature = (
      await owner.api("POST", "/broadcasting/auth", { socket_id: own.id, channel_name: companyChannel(company.id) })
    ).json().auth;
    expect(await intruder.emitWithAck("subscribe", companyChannel(company.id), ownerSignature)).toMatchObject({
      ok: false,
    });

    const heard = record(intruder, REALTIME_EVENTS.sourceUpdated);
    const seen = record(own, REALTIME_EVENTS.sourceUpdated);
    expect((await owner.api("POST", "/api/sources", { name: "demo" })).statusCode).toBe(200);
    await until(() => seen.length === 1);
    await quiet();
    expect(heard).toEqual([]);
  });

  it("answers 401 without a session, 422 on bad input, and refuses a socket without a session", async () => {
    const guest = env().client();
    await guest.pageData();
    const anonymous = await guest.api("POST", "/broadcasting/auth", { socket_id: "abc", channel_name: "company.x" });
    expect(anonymous.statusCode).toBe(401);
    expect((await guest.api("POST", "/broadcasting/user-auth", { socket_id: "abc" })).statusCode).toBe(401);

    const owner = env().client();
    await owner.signUpAndPassIntro();
    const bad = await owner.api("POST", "/broadcasting/auth", { socket_id: "", channel_name: 5 });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(["channel_name", "socket_id"]);
    const unknownChannel = await owner.api("POST", "/broadcasting/auth", { socket_id: "abc", channel_name: "admins" });
    expect(unknownChannel.statusCode).toBe(403);

    await expect(openSocket(base, null)).rejects.toThrow("unauthenticated");
  });

  it("signs the user in on its socket through /broadcasting/user-auth", async () => {
    const owner = env().client();
    const { user } = await owner.signUpAndPassIntro();
    const socket = await open(owner);
    const signed = await owner.api("POST", "/broadcasting/user-auth", { socket_id: socket.id });
    expect(signed.statusCode).toBe(200);
    const body = signed.json();
    expect(JSON.parse(body.user_data)).toMatchObject({ id: user.id });
    expect(await socket.emitWithAck("signin", body)).toEqual({ ok: true });
    const other = await open(owner);
    expect(await other.emitWithAck("signin", body)).toEqual({ ok: false, error: "forbidden" });
  });

  it("delivers CompanySubscriptionUpdated when the subscription is canceled", async () => {
    const owner = env().client();
    const { company } = await owner.signUpAndPassIntro();
    const socket = await open(owner);
    await subscribe(owner, socket, company.id);
    const seen = record(socket, REALTIME_EVENTS.subscriptionUpdated);
    const canceled = await owner.api("DELETE", "/api/company", { cancellation: { reason: "testing" } });
    expect(canceled.statusCode).toBe(200);
    await until(() => seen.length === 1);
    expect(seen[0].data).toEqual({ state: "canceled", services: company.services });
  });

  it("disconnects the socket of a revoked session and keeps the others", async () => {
    const owner = env().client();
    const { email, password, company } = await owner.signUpAndPassIntro();
    const otherTab = env().client();
    await otherTab.login(email, password);
    const revoked = await open(owner);
    const kept = await open(otherTab);
    await subscribe(owner, revoked, company.id);
    const closed = new Promise<string>((resolve) => revoked.once("disconnect", resolve));
    // What any process publishes when it ends a session (logout, password change …).
    await env().ctx.events.publish("session.revoked", { tokenHash: sha256(String(owner.cookie("session"))) });
    expect(await closed).toBe("io server disconnect");
    await quiet();
    expect(kept.connected).toBe(true);
    // All sessions of a company (a deletion): every socket of that company goes.
    const allClosed = new Promise<string>((resolve) => kept.once("disconnect", resolve));
    await env().ctx.events.publish("session.revoked", { companyId: company.id });
    expect(await allClosed).toBe("io server disconnect");
  });

  it("reaches browsers connected to another web process sharing the event bus", async () => {
    const owner = env().client();
    const { company } = await owner.signUpAndPassIntro();
    const here = await open(owner, base);
    const there = await open(owner, secondBase);
    await subscribe(owner, here, company.id);
    await subscribe(owner, there, company.id);
    const seenHere = record(here, REALTIME_EVENTS.sourceUpdated);
    const seenThere = record(there, REALTIME_EVENTS.sourceUpdated);
    // The change is made through the first process by the browser holding the socket `here`.
    const created = await owner.api("POST", "/api/sources", { name: "demo" }, { "x-socket-id": String(here.id) });
    expect(created.statusCode).toBe(200);
    await until(() => seenThere.length === 1);
    expect(seenThere[0].data).toMatchObject({ id: created.json().data.id });
    await quiet();
    expect(seenHere).toEqual([]);
  });
});
