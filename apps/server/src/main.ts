import fs from "node:fs";
import pino from "pino";
import { buildApp } from "./app";
import type { AppContext } from "./context";
import { createInfra } from "./infra";
import { ConfigError, loadConfig } from "./infra/config";
import { loadEnvFile } from "./infra/env-file";
import { demoLoginFile, seedDemoAccount } from "./seed/demo";

/** Starts the embedded mode: one process serving the SPA and the API. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  const envFile = loadEnvFile();
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Log lines are written asynchronously, 4 KB at a time (a write per ~10 requests under load instead of
  // a blocking write per line, pino's default), and never later than half a second; pino writes out
  // what is left when the process exits.
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => {
    try {
      destination.flush();
    } catch {
      // The destination was ended: the process is exiting.
    }
  }, 500).unref();
  const logger = pino(
    {
      level: config.logLevel,
      redact: ["req.headers.cookie", "req.headers.authorization", "req.headers['x-authorization']"],
      // JSON in production; readable single lines otherwise.
      ...(config.env === "production" ? {} : { transport: undefined }),
    },
    destination,
  );
  if (envFile) logger.info(`Settings read from ${envFile} (environment variables win)`);

  const infra = await createInfra(config, { logger });
  const ctx: AppContext = { ...infra, config };
  const demo = config.seedDemo ? await seedDemoAccount(ctx) : null;
  const app = await buildApp(ctx);
  await app.listen({ port: config.port, host: config.host });
  logger.info(`Reportz is running at ${config.appUrl} (database: ${infra.dialect}, ${infra.mode} mode)`);
  if (demo) logger.info(`Demo login: ${demo.email} / ${demo.password} (kept in ${demo.file})`);
  else if (config.seedDemo && fs.existsSync(demoLoginFile(config.dataDir)))
    logger.info(`Demo login: see ${demoLoginFile(config.dataDir)}`);
  destination.flushSync(); // the start-up lines, at once

  // Graceful shutdown: stop accepting, let in-flight requests finish, then close the database.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, "shutting down");
    const timer = setTimeout(() => process.exit(1), 10_000);
    await app.close();
    await infra.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

void main();
