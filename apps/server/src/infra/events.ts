/**
 * The typed event bus (docs/operations.md): in-process when embedded, Redis pub/sub when distributed.
 * Cache invalidation across processes and realtime fan-out go through it, so no process serves a
 * stale answer after another one changed the data. Events are facts ("this changed"), never commands.
 */
export interface AppEvents {
  /** A source's credentials, files or settings changed: cached widget answers over it are stale. */
  "source.changed": {
    companyId: string;
    sourceId: string;
    /** A token naming this change: every process keys its cached tables of the source with it. */
    version?: string;
  };
  /** Sessions ended: one (by token hash), all of a user, or all of a company (role, e-mail, deletion). */
  "session.revoked": { tokenHash?: string; userId?: string; companyId?: string };
  /** A company's settings or subscription changed: cached page data and sessions carrying it are stale. */
  "company.changed": { companyId: string };
  /** A dashboard was saved: caches of its page data and parsed widgets are stale. */
  "dashboard.saved": { companyId: string; dashboardId: string };
  /**
   * A message for browsers on a private channel (`company.{id}`). Every web process forwards it to
   * its own connected sockets; `exceptSocket` is the socket id of the browser that caused it (no echo).
   */
  "realtime.broadcast": { channel: string; event: string; data: unknown; exceptSocket?: string | null };
  /**
   * A user did something an onboarding flow waits for (docs/product.md §4): Mission Control's
   * `domain_added` (step 2→3), `window_switched` (3→4) and `domain_snoozed` (4→5). Facts for the
   * onboarding work to consume; nothing here advances a step by itself.
   */
  "onboarding.event": { companyId: string; userId: string; flow: "mc"; event: McOnboardingEvent };
}

/** Mission Control's onboarding facts, in the order the mc flow asks for them. */
export type McOnboardingEvent = "domain_added" | "window_switched" | "domain_snoozed";

export type EventName = keyof AppEvents;
export type EventHandler<K extends EventName> = (payload: AppEvents[K]) => void | Promise<void>;

export interface EventBus {
  /** Delivers to every subscriber in every process, this one included. */
  publish<K extends EventName>(name: K, payload: AppEvents[K]): Promise<void>;
  /** Returns the unsubscribe function. A handler that throws is logged, never breaks the publisher. */
  subscribe<K extends EventName>(name: K, handler: EventHandler<K>): () => void;
  close(): Promise<void>;
}

/** The embedded bus: handlers run on a later tick, as they would after a network hop. */
export function createLocalEventBus(onError: (error: unknown, name: string) => void = () => {}): EventBus {
  const handlers = new Map<string, Set<EventHandler<EventName>>>();
  return {
    async publish(name, payload) {
      const set = handlers.get(name);
      if (!set) return;
      await Promise.all(
        [...set].map(async (handler) => {
          try {
            await (handler as EventHandler<typeof name>)(payload);
          } catch (error) {
            onError(error, name);
          }
        }),
      );
    },
    subscribe(name, handler) {
      let set = handlers.get(name);
      if (!set) {
        set = new Set();
        handlers.set(name, set);
      }
      set.add(handler as EventHandler<EventName>);
      return () => set.delete(handler as EventHandler<EventName>);
    },
    async close() {
      handlers.clear();
    },
  };
}
