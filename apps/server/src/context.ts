import type { Logger } from "pino";
import type { ServerOptions as SocketServerOptions } from "socket.io";
import type { BrowserPool } from "./infra/browser";
import type { CacheFactory } from "./infra/cache";
import type { Clock } from "./infra/clock";
import type { AppConfig } from "./infra/config";
import type { Db, Dialect } from "./infra/db";
import type { ErrorReporter } from "./infra/error-reporting";
import type { EventBus } from "./infra/events";
import type { JobQueue } from "./infra/jobs";
import type { Mailer } from "./infra/mail";
import type { RateLimitStore } from "./infra/rate-limit-store";
import type { Storage } from "./infra/storage";

/** Which half of the work a process does (ROLE): `web` serves HTTP and realtime, `worker` runs jobs. */
export type ProcessRole = "all" | "web" | "worker";

/**
 * Every piece of infrastructure, built once at start-up by `createInfra(config)` from configuration
 * (embedded or distributed, never decided inside a feature).
 */
export interface Infra {
  mode: "embedded" | "distributed";
  role: ProcessRole;
  db: Db;
  dialect: Dialect;
  cache: CacheFactory;
  storage: Storage;
  jobs: JobQueue;
  events: EventBus;
  rateLimits: RateLimitStore;
  mailer: Mailer;
  /** Lazy: no Chromium starts until a feature asks for a page. */
  browser: BrowserPool;
  clock: Clock;
  logger: Logger;
  /**
   * Socket.IO adapter for realtime (distributed: `@socket.io/redis-adapter`, see infra/realtime-adapter);
   * undefined embedded, where Socket.IO's in-memory adapter is right.
   */
  socketAdapter?: SocketServerOptions["adapter"];
  /** Error reporting (Sentry when SENTRY_DSN is set; otherwise it reports nothing). */
  errors: ErrorReporter;
  /** Releases everything in reverse order of creation (connections, browser, database). */
  close(): Promise<void>;
}

/** What every feature receives: the configuration and the infrastructure chosen at start-up. */
export interface AppContext extends Infra {
  config: AppConfig;
}
