import type { Logger } from "pino";
import type { AppConfig } from "./infra/config";
import type { Db, Dialect } from "./infra/db";
import type { Mailer } from "./infra/mail";

/** What every feature receives: the infrastructure chosen at start-up. */
export interface AppContext {
  config: AppConfig;
  db: Db;
  dialect: Dialect;
  mailer: Mailer;
  logger: Logger;
}
