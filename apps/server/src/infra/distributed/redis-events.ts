import type { Redis } from "ioredis";
import type { AppEvents, EventBus, EventHandler, EventName } from "../events";

const CHANNEL_PREFIX = "events:";

/**
 * The distributed event bus: Redis pub/sub, one subscriber connection per process. A publish reaches
 * every process's subscribers, the publisher's own included (its subscriber connection hears it like
 * any other), so a handler behaves the same whichever process raised the event.
 */
export function createRedisEventBus(
  publisher: Redis,
  subscriber: Redis,
  onError: (error: unknown, name: string) => void,
): EventBus {
  const handlers = new Map<string, Set<EventHandler<EventName>>>();
  subscriber.on("message", (channel: string, message: string) => {
    if (!channel.startsWith(CHANNEL_PREFIX)) return;
    const name = channel.slice(CHANNEL_PREFIX.length);
    const set = handlers.get(name);
    if (!set || set.size === 0) return;
    let payload: unknown;
    try {
      payload = JSON.parse(message);
    } catch (error) {
      onError(error, name);
      return;
    }
    for (const handler of set) {
      Promise.resolve()
        .then(() => handler(payload as AppEvents[EventName]))
        .catch((error) => onError(error, name));
    }
  });
  return {
    async publish(name, payload) {
      await publisher.publish(CHANNEL_PREFIX + name, JSON.stringify(payload));
    },
    subscribe(name, handler) {
      let set = handlers.get(name);
      if (!set) {
        set = new Set();
        handlers.set(name, set);
        subscriber.subscribe(CHANNEL_PREFIX + name).catch((error) => onError(error, name));
      }
      set.add(handler as EventHandler<EventName>);
      return () => {
        set.delete(handler as EventHandler<EventName>);
      };
    },
    async close() {
      handlers.clear();
    },
  };
}

/** Resolves once the subscriber connection has subscribed to every channel asked so far. */
export async function subscriptionsReady(subscriber: Redis): Promise<void> {
  await subscriber.ping().catch(() => {});
}
