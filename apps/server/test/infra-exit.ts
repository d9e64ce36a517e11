import pino from "pino";
import { createInfra } from "../src/infra";
import { loadConfig } from "../src/infra/config";

/**
 * Run as a child process by create-infra.test.ts: builds the distributed infrastructure from the
 * environment, makes every connection do some work, closes it, and then simply returns. If anything
 * (a Redis socket, a BullMQ worker, a database pool, a timer) were left open, this process would not
 * exit on its own, and the test would see it still running.
 */
const config = loadConfig(process.env);
const infra = await createInfra(config, { logger: pino({ level: "silent" }) });
if (infra.mode !== "distributed") throw new Error(`expected distributed mode, got ${infra.mode}`);
const received = new Promise<void>((resolve) => infra.events.subscribe("company.changed", () => resolve()));
const publishing = setInterval(() => void infra.events.publish("company.changed", { companyId: "c1" }), 50);
await received;
clearInterval(publishing);
await infra.rateLimits.hit("exit-check", 60_000);
await infra.cache<{ n: number }>("exit", { maxSize: 10, ttlMs: 60_000 }).set("k", { n: 1 });
await infra.jobs.start();
await infra.close();
process.stdout.write("closed\n");
