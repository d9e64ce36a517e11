import type http from "node:http";
import type net from "node:net";

/** How long a closing connection keeps reading what its client still sends, at most (within the 10 s of a graceful shutdown, main.ts). */
export const LINGER_MAX_MS = 5_000;
/** …and how long it waits for the next piece of it. */
export const LINGER_IDLE_MS = 2_000;

/**
 * Closes a connection only once its client has finished sending ("lingering close", as nginx and Apache
 * do). Node closes the socket as soon as an answer marked `connection: close` is written, and Fastify
 * marks every answer to a body it refused so (413 on the declared length, a malformed body), as does a
 * client that asked for it. If the request's body is still arriving then (an early 401 or 413 to a
 * large upload), the kernel answers the unread bytes with a TCP reset, which destroys the answer in the
 * client's receive buffer before the client reads it: the client sees a reset connection, not the
 * answer. Here such a socket is half-closed after the answer (FIN), the rest of the body is read and
 * dropped, and the socket is destroyed when the body is complete, the client closes, or after the
 * limits above.
 */
export function lingerBeforeClosing(server: http.Server): void {
  const current = new WeakMap<net.Socket, http.IncomingMessage>();
  server.on("request", (request: http.IncomingMessage) => current.set(request.socket, request));
  server.on("connection", (socket: net.Socket) => {
    const destroySoon = socket.destroySoon;
    // Node's HTTP server closes a connection after its last answer with destroySoon (end, then destroy).
    socket.destroySoon = function lingeringDestroySoon(this: net.Socket) {
      const request = current.get(socket);
      if (!request || request.complete || socket.destroyed) return destroySoon.call(this);
      socket.end();
      const close = () => socket.destroy();
      const deadline = setTimeout(close, LINGER_MAX_MS);
      socket.setTimeout(LINGER_IDLE_MS, close);
      // The server dumps an unread body: it flows and ends like any other once all of it has arrived.
      request.once("end", close);
      socket.once("end", close);
      socket.once("close", () => clearTimeout(deadline));
      request.resume();
    };
  });
}
