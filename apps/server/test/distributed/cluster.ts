import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDatabase } from "../postgres";
import { freePort, until as waitFor } from "../wait";

export { freePort, waitFor };

/**
 * Real infrastructure for the multi-process proof: a PostgreSQL database (in the cluster CI made, or a
 * throwaway one started here), a redis-server, and server processes started exactly as an operator
 * would (docs/operations.md), each with its own port, role and data folder.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, "../../../..");

export interface Resource {
  url: string;
  stop(): Promise<void>;
}

/** A fresh database in TEST_DATABASE_URL's cluster, or a throwaway PostgreSQL 15 cluster of our own. */
export async function startPostgres(workDir: string): Promise<Resource> {
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stopCluster = async () => {};
  if (!adminUrl) {
    const bin = "/usr/lib/postgresql/15/bin";
    if (!fs.existsSync(`${bin}/initdb`))
      throw new Error("PostgreSQL 15 is not installed and TEST_DATABASE_URL is unset");
    // mkdtemp folders are private to root: the postgres user must be able to reach its data folder.
    fs.chmodSync(workDir, 0o755);
    const root = path.join(workDir, "pg");
    fs.mkdirSync(root, { recursive: true });
    execFileSync("chown", ["postgres:postgres", root]);
    const port = await freePort();
    const asPostgres = (args: string[]) =>
      execFileSync("runuser", ["-u", "postgres", "--", ...args], { stdio: "ignore" });
    asPostgres([
      `${bin}/initdb`,
      "-D",
      `${root}/data`,
      "-U",
      "postgres",
      "--auth=trust",
      "-E",
      "UTF8",
      "--locale=C.UTF-8",
      "--no-sync",
    ]);
    asPostgres([
      `${bin}/pg_ctl`,
      "-D",
      `${root}/data`,
      "-l",
      `${root}/server.log`,
      "-w",
      "-o",
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${root} -c fsync=off`,
      "start",
    ]);
    adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    stopCluster = async () => {
      asPostgres([`${bin}/pg_ctl`, "-D", `${root}/data`, "-m", "immediate", "-w", "stop"]);
    };
  }
  const database = await createDatabase(adminUrl, "proof_");
  return {
    url: database.url,
    async stop() {
      await database.drop().catch(() => {});
      await stopCluster();
    },
  };
}

/** redis-server on a free loopback port, no persistence (scripts/ensure-services.sh installs it). */
export async function startRedis(workDir: string): Promise<Resource> {
  const dir = path.join(workDir, "redis");
  fs.mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const binary = process.env.REDIS_SERVER_BIN ?? "redis-server";
  execFileSync(binary, [
    "--bind",
    "127.0.0.1",
    "--port",
    String(port),
    "--save",
    "",
    "--appendonly",
    "no",
    "--daemonize",
    "yes",
    "--pidfile",
    `${dir}/redis.pid`,
    "--logfile",
    `${dir}/redis.log`,
    "--dir",
    dir,
  ]);
  await waitFor(async () => {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    return ok;
  }, 10_000);
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const pid = Number(fs.readFileSync(`${dir}/redis.pid`, "utf8"));
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // already gone
      }
    },
  };
}

export interface ServerProcess {
  name: string;
  role: "web" | "worker";
  port: number;
  url: string;
  child: ChildProcess;
  /** Everything the process printed, for the report when something fails. */
  output(): string;
  kill(signal?: NodeJS.Signals): void;
  exited(): Promise<void>;
}

/** Starts `apps/server/src/main.ts` as an operator would, with its own data folder. */
export function startServer(options: {
  name: string;
  role: "web" | "worker";
  port: number;
  env: Record<string, string>;
  workDir: string;
}): ServerProcess {
  const dataDir = path.join(options.workDir, options.name);
  fs.mkdirSync(dataDir, { recursive: true });
  // `node --import tsx`, not the tsx CLI: the CLI runs the server in a child process of its own, whose pid
  // is not ours to SIGKILL.
  const child = spawn(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "apps/server/src/main.ts")], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? os.tmpdir(),
      ...options.env,
      ROLE: options.role,
      PORT: String(options.port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exit = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    name: options.name,
    role: options.role,
    port: options.port,
    url: `http://127.0.0.1:${options.port}`,
    child,
    output: () => output,
    kill: (signal = "SIGTERM") => {
      if (child.exitCode === null) child.kill(signal);
    },
    exited: () => exit,
  };
}
