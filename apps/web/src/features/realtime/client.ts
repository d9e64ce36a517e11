import { companyChannel, REALTIME_CLIENT, REALTIME_PATH, type RealtimeMessage, type TRealtimeAck } from "@app/core";
import { io } from "socket.io-client";
import { call } from "../../lib/api";
import { setRealtimeSocketId } from "../../lib/socket-id";
import { setRealtimeStatus } from "./status";

type Handler = (data: unknown) => void;

export interface CompanyChannel {
  /** Calls `handler` with the data of every `event` on the channel; returns the unsubscribe function. */
  on(event: string, handler: Handler): () => void;
  close(): void;
}

/**
 * Asks at once whether this page's session still lives, when the server ended or refused its socket. If
 * not, the answer is a 401 and the API client reloads the page into the sign-in page (docs/product.md §8)
 * rather than on its next call; a restart or a live session changes nothing.
 */
function checkSession(): void {
  call("userSessionsList").catch(() => undefined);
}

/** After the server ended the socket (a restart, a revoked session): wait this long, then try once more. */
const SERVER_DISCONNECT_RETRY_MS = [1_000, 3_000, 10_000, 30_000];

/**
 * The page's connection to its company's private channel (docs/product.md §4, §7). Socket.IO at /socket.io (the
 * session cookie goes with the handshake); on every (re)connection the new socket id is authorised at
 * /broadcasting/auth and subscribes with the signature, and becomes the `x-socket-id` of API calls.
 * `onSubscribed` follows every subscription: `again` once the channel was heard before (a gap of a lost
 * connection), not on the first (a gap of the page's own loading).
 */
export function openCompanyChannel(companyId: string, onSubscribed?: (again: boolean) => void): CompanyChannel {
  const channel = companyChannel(companyId);
  const handlers = new Map<string, Set<Handler>>();
  const socket = io({ path: REALTIME_PATH, withCredentials: true });
  let retries = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** The channel has been heard on before: a later subscription follows a gap in which events were lost. */
  let subscribedBefore = false;
  setRealtimeStatus({ state: "connecting" });

  socket.on("connect", async () => {
    const socketId = socket.id;
    if (!socketId) return;
    try {
      const { auth } = await call("broadcastingAuth", { body: { socket_id: socketId, channel_name: channel } });
      const ack = (await socket.emitWithAck(REALTIME_CLIENT.subscribe, channel, auth)) as TRealtimeAck;
      if (!ack.ok) throw new Error(ack.error);
      // A socket id is only announced once the socket hears the channel: until then there is no echo to avoid.
      if (socket.id === socketId) setRealtimeSocketId(socketId);
      retries = 0;
      setRealtimeStatus({ state: "live" });
      onSubscribed?.(subscribedBefore);
      subscribedBefore = true;
    } catch {
      setRealtimeStatus({ state: "offline" });
    }
  });

  socket.on("disconnect", (reason) => {
    setRealtimeSocketId(null);
    setRealtimeStatus({ state: "connecting" });
    // Socket.IO reconnects by itself after a lost connection, but not when the server ended the socket.
    if (reason === "io server disconnect") {
      // The server also ends the sockets of a session signed out elsewhere (the profile's sessions list).
      checkSession();
      const delay = SERVER_DISCONNECT_RETRY_MS[Math.min(retries++, SERVER_DISCONNECT_RETRY_MS.length - 1)];
      retryTimer = setTimeout(() => socket.connect(), delay);
    }
  });

  // A refused handshake (no valid session any more) is final. The session may have been ended before this socket
  // connected (signed out elsewhere while the page loaded).
  socket.on("connect_error", () => {
    if (socket.active) return;
    setRealtimeStatus({ state: "offline" });
    checkSession();
  });

  socket.onAny((event: string, message: RealtimeMessage | undefined) => {
    if (!message || message.channel !== channel) return;
    setRealtimeStatus({ lastEventAt: Date.now() });
    for (const handler of handlers.get(event) ?? []) handler(message.data);
  });

  return {
    on(event, handler) {
      let set = handlers.get(event);
      if (!set) {
        set = new Set();
        handlers.set(event, set);
      }
      set.add(handler);
      return () => set.delete(handler);
    },
    close() {
      clearTimeout(retryTimer);
      handlers.clear();
      socket.disconnect();
      setRealtimeSocketId(null);
      setRealtimeStatus({ state: "off" });
    },
  };
}
