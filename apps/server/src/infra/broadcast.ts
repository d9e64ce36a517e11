import { AsyncLocalStorage } from "node:async_hooks";
import { companyChannel } from "@app/core";
import type { AppContext } from "../context";

/**
 * The realtime socket of the browser whose request is being served (its `x-socket-id` header), kept
 * for the request's async context so a service can leave that browser out of the broadcast it causes
 * without every signature carrying it.
 */
const originSocket = new AsyncLocalStorage<string>();

/** Runs `next` (the rest of the request) with the caller's socket id in its context. */
export function withOriginSocket(socketId: string, next: () => void): void {
  originSocket.run(socketId, next);
}

/**
 * Tells every browser on the company's private channel (in every web process, through the event bus)
 * that something changed. Never fails the write that caused it: a lost notification is logged.
 */
export async function broadcastToCompany(
  ctx: Pick<AppContext, "events" | "logger">,
  companyId: string,
  event: string,
  data: unknown,
): Promise<void> {
  try {
    await ctx.events.publish("realtime.broadcast", {
      channel: companyChannel(companyId),
      event,
      data,
      exceptSocket: originSocket.getStore() ?? null,
    });
  } catch (error) {
    ctx.logger.warn({ err: error, event, companyId }, "realtime broadcast failed");
  }
}
