import type { IncomingMessage } from "node:http";
import {
  channelSpellings,
  HEADERS,
  REALTIME_CLIENT,
  REALTIME_PATH,
  type TRealtimeAck,
  ZBroadcastAuth,
  ZBroadcastAuthResponse,
  ZBroadcastUserAuth,
  ZBroadcastUserAuthResponse,
} from "@app/core";
import { type DefaultEventsMap, Server, type Socket } from "socket.io";
import type { AppContext } from "../../context";
import { withOriginSocket } from "../../infra/broadcast";
import type { AppEvents } from "../../infra/events";
import { type App, SESSION_COOKIE } from "../../infra/http";
import type { AuthService } from "../auth/service";
import type { Feature } from "../registry";
import { realtimeService, userChannel } from "./service";

/** What a socket carries from its handshake: the session its cookie named. */
interface SocketSession {
  sessionId: string;
  userId: string;
  companyId: string;
}

type AppSocket = Socket<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketSession>;

/**
 * Realtime to browsers (docs/product.md §4, §7): a Socket.IO server on the app's HTTP server, the channel
 * authorisation endpoints, and the fan-out of `realtime.broadcast` events to this process's sockets.
 */
function registerRealtime(app: App, ctx: AppContext, auth: AuthService): void {
  const realtime = realtimeService(ctx);
  const io = new Server<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketSession>(app.server, {
    path: REALTIME_PATH,
    serveClient: false,
    // Distributed: the Redis adapter makes cross-node operations (fetchSockets, disconnectSockets) work.
    ...(ctx.socketAdapter ? { adapter: ctx.socketAdapter } : {}),
    // Same rule as for mutations: a page of another site may not open a socket with our cookies.
    allowRequest: (request, callback) => callback(null, sameOrigin(request)),
  });

  // The handshake carries the session cookie: a socket lives only as long as its session.
  io.use(async (socket, next) => {
    const token = app.parseCookie(socket.handshake.headers.cookie ?? "")[SESSION_COOKIE] ?? null;
    const state = await auth.resolve(token).catch(() => null);
    if (!state) return next(new Error("unauthenticated"));
    socket.data = { sessionId: state.sessionId, userId: state.user.id, companyId: state.company.id };
    next();
  });

  io.on("connection", (socket: AppSocket) => {
    socket.on(REALTIME_CLIENT.subscribe, (channel: unknown, signature: unknown, ack: unknown) => {
      // Laravel Echo's Socket.IO connector: `{channel, auth}`, no signature and no acknowledgement.
      if (isEchoRequest(channel)) {
        if (!realtime.mayListen(socket.data.companyId, channel.channel)) {
          socket.emit("subscription_error", channel.channel, 403);
          return;
        }
        void socket.join(echoRoom(channel.channel));
        return;
      }
      const answer = typeof ack === "function" ? (ack as (result: TRealtimeAck) => void) : () => {};
      if (typeof channel !== "string" || typeof signature !== "string") return answer({ ok: false, error: "invalid" });
      if (!realtime.mayJoin(socket.id, socket.data.companyId, channel, signature)) {
        return answer({ ok: false, error: "forbidden" });
      }
      void socket.join(channel);
      answer({ ok: true });
    });
    socket.on(REALTIME_CLIENT.unsubscribe, (channel: unknown) => {
      if (isEchoRequest(channel)) void socket.leave(echoRoom(channel.channel));
      else if (typeof channel === "string" && channel !== socket.id) void socket.leave(channel);
    });
    socket.on(REALTIME_CLIENT.signin, (input: unknown, ack: unknown) => {
      const answer = typeof ack === "function" ? (ack as (result: TRealtimeAck) => void) : () => {};
      const { auth: signature, user_data: userData } = (input ?? {}) as { auth?: unknown; user_data?: unknown };
      if (typeof signature !== "string" || typeof userData !== "string") return answer({ ok: false, error: "invalid" });
      const userId = realtime.signedUser(socket.id, socket.data.userId, signature, userData);
      if (!userId) return answer({ ok: false, error: "forbidden" });
      void socket.join(userChannel(userId));
      answer({ ok: true });
    });
  });

  // Every web process receives every broadcast through the bus and emits only to its own sockets
  // (`local`): the bus already reached the other processes, the adapter must not repeat it.
  const unsubscribes = [
    ctx.events.subscribe("realtime.broadcast", ({ channel, event, data, exceptSocket }) => {
      const to = (name: string) => (exceptSocket ? io.local.to(name).except(exceptSocket) : io.local.to(name));
      // Each spelling of the channel is its own room, so every listener hears the name it subscribed to.
      for (const name of channelSpellings(channel)) {
        to(name).emit(event, { channel: name, data });
        // Laravel Echo's listeners take (channel, data) and keep what names their channel.
        to(echoRoom(name)).emit(event, name, data);
      }
    }),
    ctx.events.subscribe("session.revoked", (revoked) => {
      for (const socket of io.of("/").sockets.values()) {
        if (isRevoked(socket.data, revoked)) socket.disconnect(true);
      }
    }),
  ];

  // Websockets would keep the HTTP server from closing: end them before Fastify waits for connections.
  app.addHook("preClose", (done) => {
    io.local.disconnectSockets(true);
    io.engine.close();
    done();
  });
  app.addHook("onClose", async () => {
    for (const unsubscribe of unsubscribes) unsubscribe();
    await io.of("/").adapter.close();
  });

  // The socket id a page sends with its API calls: the broadcast that call causes skips that page.
  app.addHook("preHandler", (request, _reply, done) => {
    const socketId = request.headers[HEADERS.socketId];
    if (typeof socketId === "string" && socketId !== "" && socketId.length <= 100) withOriginSocket(socketId, done);
    else done();
  });

  const tags = ["realtime"];
  app.post(
    "/broadcasting/auth",
    { schema: { tags, body: ZBroadcastAuth, response: { 200: ZBroadcastAuthResponse } } },
    async (request) => realtime.authorizeChannel(request.auth, request.body),
  );
  app.post(
    "/broadcasting/user-auth",
    { schema: { tags, body: ZBroadcastUserAuth, response: { 200: ZBroadcastUserAuthResponse } } },
    async (request) => realtime.authorizeUser(request.auth, request.body.socket_id),
  );
}

/** A subscription of Laravel Echo's Socket.IO connector (the protocol of laravel-echo-server). */
function isEchoRequest(input: unknown): input is { channel: string } {
  return (
    typeof input === "object" &&
    input !== null &&
    typeof (input as { channel?: unknown }).channel === "string" &&
    (input as { channel: string }).channel.length <= 200
  );
}

/** The room of Echo's listeners of a channel, apart from ours: the two are sent the event in different shapes. */
function echoRoom(channel: string): string {
  return `echo:${channel}`;
}

function isRevoked(socket: SocketSession | undefined, revoked: AppEvents["session.revoked"]): boolean {
  if (!socket) return false;
  return (
    (revoked.tokenHash !== undefined && revoked.tokenHash === socket.sessionId) ||
    (revoked.userId !== undefined && revoked.userId === socket.userId) ||
    (revoked.companyId !== undefined && revoked.companyId === socket.companyId)
  );
}

function sameOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

export const realtimeFeature: Feature = {
  name: "realtime",
  routes: (app, ctx, services) => registerRealtime(app, ctx, services.get("auth")),
};
