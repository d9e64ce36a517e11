import assert from "node:assert/strict";
import { companyChannel, REALTIME_CLIENT, REALTIME_EVENTS, type RealtimeMessage } from "@app/core";
import { io as connect, type Socket } from "socket.io-client";
import type { HttpClient } from "./client";

/** A browser's socket on one web process: the session cookie on the handshake, as a browser sends it. */
async function openSocket(base: string, client: HttpClient): Promise<Socket> {
  const socket = connect(base, {
    path: "/socket.io",
    transports: ["websocket"],
    reconnection: false,
    extraHeaders: { cookie: client.cookieHeader() },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}

/** Authorises at `authBase` (any web process: the signature is valid on all) and joins the channel. */
async function subscribe(client: HttpClient, authBase: string, socket: Socket, companyId: string) {
  const channel = companyChannel(companyId);
  const authorised = await client.api(authBase, "POST", "/broadcasting/auth", {
    socket_id: socket.id,
    channel_name: channel,
  });
  assert.equal(authorised.status, 200, authorised.text);
  const ack = await socket.emitWithAck(REALTIME_CLIENT.subscribe, channel, (authorised.body as { auth: string }).auth);
  assert.deepEqual(ack, { ok: true });
}

/**
 * Check 3 of the proof: a `CompanySourceUpdated` raised through web 3 reaches the company's browsers
 * connected to webs 1 and 2, and never a browser of another company (which may not even subscribe).
 */
export async function realtimeCheck(input: {
  owner: HttpClient;
  ownerCompanyId: string;
  other: HttpClient;
  otherCompanyId: string;
  web1: string;
  web2: string;
  web3: string;
}): Promise<string> {
  const { owner, other, web1, web2, web3 } = input;
  const sockets: Socket[] = [];
  try {
    const onWeb1 = await openSocket(web1, owner);
    const onWeb2 = await openSocket(web2, owner);
    const stranger = await openSocket(web1, other);
    sockets.push(onWeb1, onWeb2, stranger);
    // Authorised through another web than the one the socket is on.
    await subscribe(owner, web3, onWeb1, input.ownerCompanyId);
    await subscribe(owner, web1, onWeb2, input.ownerCompanyId);
    await subscribe(other, web2, stranger, input.otherCompanyId);
    const refused = await other.api(web1, "POST", "/broadcasting/auth", {
      socket_id: stranger.id,
      channel_name: companyChannel(input.ownerCompanyId),
    });
    assert.equal(refused.status, 403, `another company's user was authorised: ${refused.text}`);
    const forged = await stranger.emitWithAck(
      REALTIME_CLIENT.subscribe,
      companyChannel(input.ownerCompanyId),
      "forged",
    );
    assert.equal((forged as { ok: boolean }).ok, false, "a forged signature joined the channel");

    const received = new Map<Socket, RealtimeMessage<{ id: string }>[]>(sockets.map((socket) => [socket, []]));
    for (const socket of sockets) {
      socket.on(REALTIME_EVENTS.sourceUpdated, (message: RealtimeMessage<{ id: string }>) => {
        received.get(socket)?.push(message);
      });
    }
    const started = Date.now();
    const created = await owner.api(web3, "POST", "/api/sources", { name: "demo" });
    assert.equal(created.status, 200, created.text);
    const sourceId = (created.body as { data: { id: string } }).data.id;
    const arrived = (socket: Socket) => received.get(socket)?.some((message) => message.data.id === sourceId) ?? false;
    while (!(arrived(onWeb1) && arrived(onWeb2))) {
      if (Date.now() - started > 3000) throw new Error("the event did not reach both browsers within 3 s");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const latency = Date.now() - started;
    // Give a wrongly routed event every chance to arrive before declaring the stranger untouched.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(received.get(stranger), [], "a user of another company received the event");
    return `received on webs 1 and 2 within ${latency} ms of the request to web 3; the other company's browser got nothing`;
  } finally {
    for (const socket of sockets) socket.disconnect();
  }
}
