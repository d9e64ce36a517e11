import { createAdapter } from "@socket.io/redis-adapter";
import { Redis } from "ioredis";
import type { ServerOptions } from "socket.io";

export interface SocketAdapter {
  /** For `Infra.socketAdapter`. */
  adapter: ServerOptions["adapter"];
  /** Quits the two Redis connections (after the Socket.IO server has closed). */
  close(): Promise<void>;
}

/**
 * Distributed realtime: Socket.IO's Redis adapter, so cross-node operations (rooms of sockets on other
 * processes, fetchSockets, disconnectSockets) see every web process. Broadcasts of the app go through the
 * event bus instead (each process emits to its local sockets), so the adapter carries no event twice.
 * Its own two connections: a subscribed Redis connection can issue no other command.
 */
export function createRedisSocketAdapter(redisUrl: string, onError: (error: Error) => void = () => {}): SocketAdapter {
  const pub = new Redis(redisUrl);
  const sub = pub.duplicate();
  // ioredis reconnects by itself; an unlistened 'error' would only print to stderr.
  pub.on("error", onError);
  sub.on("error", onError);
  return {
    adapter: createAdapter(pub, sub),
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
