/**
 * Proof that many processes behave as one (docs/decisions.md, "The multi-process proof"), run by `npm run test:distributed` and CI:
 * PostgreSQL + Redis + three `ROLE=web` processes on three ports + two `ROLE=worker` processes, driven
 * by real HTTP and Socket.IO clients. Each numbered check is one promise the distributed mode makes.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HttpClient, registerOwner } from "./client";
import {
  freePort,
  type Resource,
  type ServerProcess,
  startPostgres,
  startRedis,
  startServer,
  waitFor,
} from "./cluster";
import { realtimeCheck } from "./realtime-check";

const AUTH_MAX = 5;
const OPS_TOKEN = "proof-ops-token-0123456789";
const results: { name: string; ok: boolean; detail: string }[] = [];

async function check(name: string, run: () => Promise<string>) {
  const started = Date.now();
  try {
    const detail = await run();
    results.push({ name, ok: true, detail: `${detail} (${Date.now() - started} ms)` });
    console.log(`ok   ${name}: ${detail}`);
  } catch (error) {
    results.push({ name, ok: false, detail: String((error as Error).stack ?? error) });
    console.log(`FAIL ${name}: ${String((error as Error).message ?? error)}`);
  }
}

async function main() {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-proof-"));
  const resources: Resource[] = [];
  const servers: ServerProcess[] = [];
  const cleanup = async () => {
    for (const server of servers) server.kill("SIGKILL");
    await Promise.all(servers.map((server) => server.exited()));
    for (const resource of resources.reverse()) await resource.stop().catch(() => {});
    fs.rmSync(workDir, { recursive: true, force: true });
  };
  try {
    const postgres = await startPostgres(workDir);
    resources.push(postgres);
    const redis = await startRedis(workDir);
    resources.push(redis);
    const env = {
      NODE_ENV: "production",
      APP_KEY: "proof-app-key-0123456789abcdef",
      APP_URL: "http://localhost",
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      STORAGE_DIR: path.join(workDir, "shared-files"),
      OPS_TOKEN,
      LOG_LEVEL: "warn",
      RATE_LIMIT_AUTH_MAX: String(AUTH_MAX),
      RATE_LIMIT_WINDOW_MS: "60000",
      SEED_DEMO: "false",
    };
    // All five start together: migrations must run once, under their lock.
    const ports = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    const roles: ("web" | "worker")[] = ["web", "web", "web", "worker", "worker"];
    roles.forEach((role, index) => {
      const name = role === "web" ? `web${index + 1}` : `worker${index - 2}`;
      servers.push(startServer({ name, role, port: ports[index], env, workDir }));
    });
    const webs = servers.filter((server) => server.role === "web");
    const workers = servers.filter((server) => server.role === "worker");
    for (const server of servers) {
      await waitFor(
        async () => {
          if (server.child.exitCode !== null) throw new Error(`${server.name} exited:\n${server.output()}`);
          return (await fetch(`${server.url}/api/health`)).ok;
        },
        60_000,
        200,
      ).catch((error) => {
        throw new Error(`${server.name} did not become healthy: ${error}\n${server.output()}`);
      });
    }
    console.log(`cluster up: ${webs.map((w) => w.url).join(", ")} + ${workers.length} workers`);
    const [web1, web2, web3] = webs.map((w) => w.url);

    const owner = await registerOwner(web1, "owner");
    const other = await registerOwner(web2, "other");
    const revoker = await registerOwner(web3, "revoker");

    await check("1. a dashboard saved through web 1 reads back identical through webs 2 and 3 at once", async () => {
      const created = await owner.client.api(web1, "POST", "/api/dashboards", { name: "Before" });
      assert.equal(created.status, 200, created.text);
      const permalink = (created.body as { data: { permalink: string } }).data.permalink;
      const read = (base: string) => owner.client.api(base, "GET", `/api/dashboards/${permalink}`);
      // Webs 2 and 3 read (and may cache) the old version first.
      for (const base of [web2, web3]) assert.equal(((await read(base)).body as DashboardBody).data.name, "Before");
      const id = ((await read(web1)).body as DashboardBody).data.id;
      const form = new FormData();
      form.set("name", "Saved through web 1");
      form.set("footer", "<p>Footer saved through web 1</p>");
      const saved = await owner.client.apiForm(web1, "POST", `/api/dashboards/${id}`, form);
      assert.equal(saved.status, 200, saved.text);
      const [one, two, three] = await Promise.all([read(web1), read(web2), read(web3)]);
      assert.equal((one.body as DashboardBody).data.name, "Saved through web 1");
      assert.deepEqual(two.body, one.body, "web 2 answered differently from web 1");
      assert.deepEqual(three.body, one.body, "web 3 answered differently from web 1");
      return "webs 2 and 3 answered the saved name and footer, byte-equal to web 1";
    });

    await check("2. a source change through web 2 invalidates cached widget answers on webs 1 and 3", async () => {
      const form = new FormData();
      form.set("name", "csv");
      form.set("file", new Blob(["Channel,Visits\nOrganic,500\nPaid,300\n"], { type: "text/csv" }), "channels.csv");
      const created = await owner.client.apiForm(web1, "POST", "/api/sources", form);
      assert.equal(created.status, 200, created.text);
      const source = (created.body as { data: { id: string; properties: { value: string }[] } }).data;
      const request = {
        timezone: "UTC",
        startDate: "2025-03-01",
        endDate: "2025-03-31",
        instances: [
          {
            id: "i-proof",
            type: "csv.sheet",
            prefix: "a",
            sourceId: source.id,
            config: "csv.sheet",
            currency: null,
            accounts: [],
            metricsOptions: {},
            inputs: {
              property: source.properties[0].value,
              sheet: "sheet1",
              has_header: true,
              has_footer: false,
              has_labels: true,
              uses_date_range: false,
              dimension: "channel",
              metrics: ["visits"],
            },
          },
        ],
      };
      const ask = (base: string) => owner.client.api(base, "POST", "/api/widgets/data", request);
      for (const base of [web1, web3]) {
        const first = await ask(base);
        assert.equal(first.status, 200, first.text);
        assert.match(first.text, /Organic/);
        assert.equal((await ask(base)).text, first.text, "the second ask is the cached answer");
      }
      const removed = await owner.client.api(web2, "DELETE", `/api/sources/${source.id}`);
      assert.equal(removed.status, 204, removed.text);
      for (const base of [web1, web3]) {
        const after = await ask(base);
        assert.notEqual(after.status, 200, `${base} still served the deleted source's cached numbers: ${after.text}`);
        assert.doesNotMatch(after.text, /Organic/);
      }
      return "after the delete on web 2, webs 1 and 3 no longer serve the source's cached numbers";
    });

    await check(
      "3. CompanySourceUpdated raised through web 3 reaches browsers on webs 1 and 2, never another company",
      () =>
        realtimeCheck({
          owner: owner.client,
          ownerCompanyId: owner.company.id,
          other: other.client,
          otherCompanyId: other.company.id,
          web1,
          web2,
          web3,
        }),
    );

    await check(
      "4. 100 jobs from the webs run exactly once across two workers; a SIGKILLed worker's job is finished by the other",
      async () => {
        const enqueue = async (base: string, prefix: string, count: number, sleepMs: number) => {
          const response = await fetch(`${base}/ops/probe-jobs`, {
            method: "POST",
            headers: { authorization: `Bearer ${OPS_TOKEN}`, "content-type": "application/json" },
            body: JSON.stringify({ prefix, count, sleepMs }),
          });
          assert.equal(response.status, 200, await response.text());
        };
        const runs = async (prefix: string) => {
          const response = await fetch(`${web1}/ops/probe-jobs?prefix=${prefix}`, {
            headers: { authorization: `Bearer ${OPS_TOKEN}` },
          });
          return ((await response.json()) as { data: ProbeRun[] }).data;
        };
        // One slow job first, so it is running on some worker when that worker is killed.
        await enqueue(web1, "slow-", 1, 4000);
        let victim: ServerProcess | undefined;
        await waitFor(async () => {
          const [slow] = await runs("slow-");
          if (!slow) return false;
          const pid = Number(slow.processes[0].split(":").pop());
          victim = workers.find(
            (worker) => worker.child.pid === pid || slow.processes[0].endsWith(`:${worker.child.pid}`),
          );
          return true;
        }, 20_000);
        // 100 jobs spread over the three webs, some while the victim is still alive.
        await Promise.all([
          enqueue(web1, "batch-a-", 34, 20),
          enqueue(web2, "batch-b-", 33, 20),
          enqueue(web3, "batch-c-", 33, 20),
        ]);
        // Enqueueing the same keys again is refused by their idempotency keys.
        await enqueue(web2, "batch-a-", 34, 20);
        assert.ok(victim, "the slow job's process is not one of the workers (the probe records host:pid)");
        victim.kill("SIGKILL");
        await victim.exited();
        await waitFor(
          async () => {
            const all = [...(await runs("batch-")), ...(await runs("slow-"))];
            return all.length === 101 && all.every((run) => run.finishes >= 1);
          },
          60_000,
          250,
        );
        const all = [...(await runs("batch-")), ...(await runs("slow-"))];
        const twice = all.filter((run) => run.finishes > 1);
        assert.deepEqual(twice, [], "some jobs completed more than once");
        const slow = all.find((run) => run.key === "slow-0");
        assert.ok(slow && slow.finishes === 1, "the killed worker's slow job was finished once");
        const survivor = workers.find((worker) => worker !== victim);
        assert.ok(slow.processes.at(-1)?.endsWith(`:${survivor?.child.pid}`), "the survivor finished the slow job");
        const perWorker = new Map<string, number>();
        for (const run of all)
          for (const process of run.processes) perWorker.set(process, (perWorker.get(process) ?? 0) + 1);
        return `101 keys finished exactly once; starts by process ${JSON.stringify(Object.fromEntries(perWorker))}`;
      },
    );

    await check("5a. login attempts spread over three webs hit 429 at the same count as on one process", async () => {
      const attempt = async (base: string) =>
        (await new HttpClient().auth(base, "/login", { email: owner.email, password: "wrong-password" })).status;
      const statuses: number[] = [];
      for (let index = 0; index < AUTH_MAX + 3; index += 1) statuses.push(await attempt([web1, web2, web3][index % 3]));
      const first429 = statuses.indexOf(429) + 1;
      assert.equal(first429, AUTH_MAX + 1, `statuses ${statuses.join(",")}`);
      return `attempts answered ${statuses.join(", ")}: the ${first429}th is refused, as on one process (limit ${AUTH_MAX})`;
    });

    await check(
      "5b. dashboard password attempts spread over three webs hit 429 at the same count as on one process",
      async () => {
        const created = await owner.client.api(web1, "POST", "/api/dashboards", { name: "Protected" });
        const permalink = (created.body as { data: { permalink: string } }).data.permalink;
        const id = ((await owner.client.api(web1, "GET", `/api/dashboards/${permalink}`)).body as DashboardBody).data
          .id;
        const protectedResponse = await owner.client.api(web1, "PUT", `/api/dashboards/${id}`, {
          category: "new_password",
          password: "client-secret",
        });
        assert.equal(protectedResponse.status, 200, protectedResponse.text);
        const viewer = new HttpClient();
        const statuses: number[] = [];
        for (let index = 0; index < 13; index += 1) {
          const base = [web1, web2, web3][index % 3];
          const response = await viewer.request(base, "GET", `/api/dashboards/${permalink}`, {
            headers: { "x-authorization": `wrong-${index}` },
          });
          statuses.push(response.status);
        }
        const first429 = statuses.indexOf(429) + 1;
        // MAX_PASSWORD_FAILURES (10) wrong passwords are answered 422, the next is refused.
        assert.equal(first429, 11, `statuses ${statuses.join(",")}`);
        return `wrong passwords answered ${statuses.join(", ")}`;
      },
    );

    await check("6. a session logged out on web 1 is refused on webs 2 and 3 within 1 s", async () => {
      // Signed in by registration: the login limit is spent by check 5a.
      const { client } = revoker;
      // Webs 2 and 3 have seen (and cached) the session.
      for (const base of [web2, web3]) assert.equal((await client.api(base, "GET", "/api/company")).status, 200);
      const cookie = client.cookieHeader();
      const started = Date.now();
      const logout = await client.auth(web1, "/logout", {});
      assert.ok(logout.status < 400, logout.text);
      const refusedAfter = await Promise.all(
        [web2, web3].map((base) =>
          waitFor(
            async () =>
              (await fetch(`${base}/api/company`, { headers: { cookie, "x-requested-with": "XMLHttpRequest" } }))
                .status === 401,
            1000,
            20,
          ),
        ),
      );
      return `refused on web 2 after ${refusedAfter[0]} ms and on web 3 after ${refusedAfter[1]} ms (logout at +${Date.now() - started - Math.max(...refusedAfter)} ms)`;
    });
  } finally {
    const failed = results.filter((result) => !result.ok);
    if (failed.length > 0) {
      for (const result of failed) console.log(`\n--- ${result.name}\n${result.detail}`);
      for (const server of servers) console.log(`\n--- output of ${server.name}\n${server.output().slice(-4000)}`);
    }
    await cleanup();
  }
  const failed = results.filter((result) => !result.ok).length;
  console.log(`\n${results.length - failed} of ${results.length} proofs passed`);
  if (failed > 0 || results.length < 7) process.exit(1);
}

interface DashboardBody {
  data: { id: string; name: string };
}
interface ProbeRun {
  key: string;
  starts: number;
  finishes: number;
  processes: string[];
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
