import {
  companyChannel,
  REALTIME_CLIENT,
  REALTIME_PATH,
  RELOAD_STATUSES,
  type RealtimeMessage,
  type TRealtimeAck,
} from "@app/core";
import { io } from "socket.io-client";
import { ApiError, call } from "../../lib/api";
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

/**
 * How long to wait before the `attempt`th try again (from 0), the last wait repeating: after the server
 * ended the socket (a restart, a revoked session), and after a failed authorisation or subscription of a
 * connected socket.
 */
const RETRY_MS = [1_000, 3_000, 10_000, 30_000];
const retryDelay = (attempt: number) => RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)];

/** The longest a subscription waits for the server's answer before it counts as failed. */
const SUBSCRIBE_ACK_TIMEOUT_MS = 10_000;

/**
 * Whether a failed authorisation or subscription may go through when tried again: the server unreachable
 * or not answering, a 5xx, a 408 or 429, or a subscription it refused (a signature it no longer takes).
 * Any other answer of the API is final: a reload status sends the page to the sign-in page (lib/api.ts),
 * a 403 says the channel is not this user's, and a 4xx would be the same the next time.
 */
export function mayGoThrough(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  if (RELOAD_STATUSES.includes(error.status)) return false;
  return error.status >= 500 || error.status === 408 || error.status === 429;
}

/**
 * The page's connection to its company's private channel (docs/product.md §4, §7). Socket.IO at /socket.io (the
 * session cookie goes with the handshake); on every (re)connection the new socket id is authorised at
 * /broadcasting/auth and subscribes with the signature, and becomes the `x-socket-id` of API calls.
 * `onSubscribed` follows every subscription: `again` once the channel was heard before (a gap of a lost
 * connection) or when the first subscription took retries, not on a first that went through at once (a
 * gap of the page's own loading).
 */
export function openCompanyChannel(companyId: string, onSubscribed?: (again: boolean) => void): CompanyChannel {
  const channel = companyChannel(companyId);
  const handlers = new Map<string, Set<Handler>>();
  const socket = io({ path: REALTIME_PATH, withCredentials: true });
  let retries = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let subscribeTimer: ReturnType<typeof setTimeout> | undefined;
  /** The channel has been heard on before: a later subscription follows a gap in which events were lost. */
  let subscribedBefore = false;
  setRealtimeStatus({ state: "connecting" });

  /**
   * Authorises this socket id and subscribes it. A failure the server may get over (unreachable, a 5xx,
   * no answer to the subscription, a refused signature) is tried again after a wait while the same socket
   * stays connected: without that the page would hear nothing, and catch up on nothing, until its socket
   * happened to reconnect (`mayGoThrough` says which failures are tried again). A subscription that took
   * more than one attempt catches up as a re-subscription does, widget data included: its gap may have
   * lasted tens of seconds.
   */
  async function subscribe(socketId: string, attempt: number): Promise<void> {
    try {
      const { auth } = await call("broadcastingAuth", { body: { socket_id: socketId, channel_name: channel } });
      const ack = (await socket
        .timeout(SUBSCRIBE_ACK_TIMEOUT_MS)
        .emitWithAck(REALTIME_CLIENT.subscribe, channel, auth)) as TRealtimeAck;
      if (!ack.ok) throw new Error(ack.error);
      // A newer connection subscribes itself.
      if (socket.id !== socketId) return;
      // A socket id is only announced once the socket hears the channel: until then there is no echo to avoid.
      setRealtimeSocketId(socketId);
      retries = 0;
      setRealtimeStatus({ state: "live" });
      onSubscribed?.(subscribedBefore || attempt > 0);
      subscribedBefore = true;
    } catch (error) {
      if (socket.id !== socketId || !socket.connected) return;
      if (!mayGoThrough(error)) return setRealtimeStatus({ state: "offline" });
      // Still on the way: the page says it is connecting until the next attempt goes through or is refused.
      setRealtimeStatus({ state: "connecting" });
      subscribeTimer = setTimeout(() => void subscribe(socketId, attempt + 1), retryDelay(attempt));
    }
  }

  socket.on("connect", () => {
    clearTimeout(subscribeTimer);
    if (socket.id) void subscribe(socket.id, 0);
  });

  socket.on("disconnect", (reason) => {
    clearTimeout(subscribeTimer);
    setRealtimeSocketId(null);
    setRealtimeStatus({ state: "connecting" });
    // Socket.IO reconnects by itself after a lost connection, but not when the server ended the socket.
    if (reason === "io server disconnect") {
      // The server also ends the sockets of a session signed out elsewhere (the profile's sessions list).
      checkSession();
      retryTimer = setTimeout(() => socket.connect(), retryDelay(retries++));
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
      clearTimeout(subscribeTimer);
      handlers.clear();
      socket.disconnect();
      setRealtimeSocketId(null);
      setRealtimeStatus({ state: "off" });
    },
  };
}
