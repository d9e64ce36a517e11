import { afterAll, expect, it } from "vitest";
import {
  expectStoredWithNotice,
  instance,
  type StoredQuery,
  storeAgedResult,
  widgetData,
} from "../../src/features/widgets/test-helpers";
import { buildOwner } from "../factories";
import { type FakeCall, type FakeFault, type FakePart, fakesForFile, type RunningFakes } from "../fakes/app";
import { describeEachDb, type TestClient, type TestEnv } from "../harness";
import { until } from "../wait";

/**
 * The scenarios every connector passes, run against its own fake (docs/decisions.md, "Connectors share one
 * kit, and one set of scenarios"). A connector declares what it supports in a small file in its own
 * folder (`connectors/<key>/scenarios.test.ts`); its own test file keeps only what is unique to it. Each scenario asks through the product's
 * real routes and services (a real server, a real database, the provider's fake over HTTP).
 */

type Parts = Record<string, FakePart<unknown>>;
type Inputs = Record<string, unknown>;

/** The fake's state the kit steers: its scripted faults. */
interface Faulting {
  failNext: FakeFault[];
}

export interface ScenarioQuery {
  type: string;
  /** The widget's inputs, keys sorted as the data path normalises them (the stored result is found by them). */
  inputs: Inputs;
}

export interface ConnectorScenarios<P extends Parts> {
  /** The describe's title: "SE Ranking". */
  title: string;
  fakes: () => P;
  /** The part whose `failNext` takes the scripted faults. */
  part: keyof P & string;
  /** Connects a source the way a user does; its id. */
  connect(client: TestClient, env: TestEnv, fakes: RunningFakes<P>): Promise<string>;
  /**
   * Distinct widget queries (another metric each): every scenario that stores a result takes its own, so
   * no scenario is answered from another's cached table. At least six.
   */
  queries: readonly ScenarioQuery[];
  /** The requests to the provider that fetch a query's numbers (not option lists, not token checks). */
  upstream(call: FakeCall): boolean;
  /** Upstream requests one cold query makes (1 unless the provider is asked in windows). */
  callsPerQuery?: number;
  /** The notices a viewer reads, in the provider's words. */
  notices: { limited: string; down: string; reconnect: string; malformed?: string };
  /** A typed API key: how the form sends one, a key the provider refuses, and the form's 422 then. */
  typedKey?: {
    connect(client: TestClient, key: string, fakes: RunningFakes<P>): ReturnType<TestClient["api"]>;
    wrong: string;
    errors: Record<string, string[]>;
  };
  /** Makes the provider refuse the source's token or grant from now on; returns what undoes it. */
  revoke?(fakes: RunningFakes<P>, env: TestEnv, sourceId: string): Promise<() => void | Promise<void>>;
  /** The provider limiting (429, or its quota's answer), as many as outlast the client's retries. */
  limited: FakeFault[];
  /**
   * More faults are scripted than the client's attempts (another request reaching the fake meanwhile
   * must not find it answering): the scenario asserts at least one was taken, not that all were.
   */
  spareFaults?: boolean;
  /** The provider down (5xx), as many as outlast the client's retries. */
  down: FakeFault[];
  /** An answer that cannot be read (broken JSON, another shape); absent when the provider sends text. */
  malformed?: FakeFault[];
  /** A query over a range long settled (no day the provider still revises). */
  settled: { query: ScenarioQuery; range: { startDate: string; endDate: string } };
}

/** A range touching today: stored results are due again after 15 minutes. */
const liveRange = () => ({ startDate: "2026-11-01", endDate: new Date().toISOString().slice(0, 10) });

export function connectorScenarios<P extends Parts>(declared: ConnectorScenarios<P>) {
  const fakes = fakesForFile(afterAll, declared.fakes);
  const faults = async () => ((await fakes.current()).parts[declared.part] as unknown as Faulting).failNext;
  const upstreamCalls = async () => (await fakes.current()).calls.filter(declared.upstream).length;
  const query = (index: number): ScenarioQuery => {
    const found = declared.queries[index];
    if (!found) throw new Error(`${declared.title} declares fewer than ${index + 1} scenario queries`);
    return found;
  };

  describeEachDb(
    `${declared.title}: the scenarios every connector passes`,
    (env) => {
      const connected = async () => {
        const { client, company } = await buildOwner(env());
        const sourceId = await declared.connect(client, env(), await fakes.current());
        return { client, companyId: company.id, sourceId };
      };
      const stored = async (index: number) => {
        const { client, companyId, sourceId } = await connected();
        const asked: StoredQuery = { companyId, sourceId, ...query(index), range: liveRange() };
        return { client, sourceId, asked, result: await storeAgedResult(env(), asked) };
      };

      /** Scripted faults, always cleared after: a fault left over would fail the next scenario's request. */
      const failing = async (scripted: FakeFault[], run: () => Promise<void>) => {
        const list = await faults();
        list.push(...scripted.map((fault) => ({ ...fault })));
        try {
          await run();
          if (declared.spareFaults) expect(list.length).toBeLessThan(scripted.length);
          else expect(list).toEqual([]);
        } finally {
          list.length = 0;
        }
      };

      if (declared.typedKey) {
        const typed = declared.typedKey;
        it("a typed key the provider refuses is the form's 422 in its words; nothing is stored", async () => {
          const { client } = await buildOwner(env());
          const refused = await typed.connect(client, typed.wrong, await fakes.current());
          expect(refused.statusCode).toBe(422);
          expect(refused.json().errors).toEqual(typed.errors);
          expect((await client.api("GET", "/api/sources")).json().data).toEqual([]);
        });
      }

      it("the provider limiting (429 / quota): the stored result with its notice, the source valid", async () => {
        const { client, asked, result } = await stored(0);
        await failing(declared.limited, () => expectStoredWithNotice(client, asked, result, declared.notices.limited));
      });

      it("the provider down (5xx): the stored result with its notice, the source valid", async () => {
        const { client, asked, result } = await stored(1);
        await failing(declared.down, () => expectStoredWithNotice(client, asked, result, declared.notices.down));
      });

      if (declared.malformed) {
        const malformed = declared.malformed;
        it("an answer that cannot be read: the stored result with a notice, never a 500; cold, an error kind", async () => {
          const { client, sourceId, asked, result } = await stored(2);
          await failing(malformed, () =>
            expectStoredWithNotice(client, asked, result, declared.notices.malformed ?? declared.notices.down),
          );
          // Nothing stored to fall back on: the widget says "Data Error" (a provider failure), the server did not fail.
          await failing(malformed, async () => {
            const cold = query(3);
            const response = await widgetData(client, [instance(sourceId, cold.type, cold.inputs)], {
              ...liveRange(),
              comparison: false,
            });
            expect(response.statusCode).not.toBe(500);
            expect(response.statusCode, response.body).toBe(502);
            expect(response.json()).toEqual({ code: "source_error", message: "Data Error" });
          });
          const sources = (await client.api("GET", "/api/sources")).json().data;
          expect(sources.find((source: { id: string }) => source.id === sourceId)?.invalid).toBe(false);
        });
      }

      if (declared.revoke) {
        const revoke = declared.revoke;
        it("a revoked token or key: the source is invalid (banner 125, announced), its stored numbers stay with a notice", async () => {
          const { client, sourceId, asked, result } = await stored(4);
          const undo = await revoke(await fakes.current(), env(), sourceId);
          const announced: unknown[] = [];
          const stop = env().ctx.events.subscribe("realtime.broadcast", (message) => {
            if (message.event === "CompanySourceUpdated") announced.push(message.data);
          });
          try {
            const response = await widgetData(client, [instance(sourceId, asked.type, asked.inputs)], {
              ...asked.range,
              comparison: false,
            });
            expect(response.statusCode, response.body).toBe(200);
            expect(response.json().data.current.totals).toEqual(result.stored.table.totals);
            expect(response.json().data.notices).toEqual([
              { instanceId: expect.any(String), asOf: result.fetchedAt, message: declared.notices.reconnect },
            ]);
            expect((await client.api("GET", "/api/sources")).json().data).toEqual([
              expect.objectContaining({ id: sourceId, invalid: true }),
            ]);
            expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
            await until(async () => announced.length > 0, 2000);
            expect(announced[0]).toMatchObject({ id: sourceId, sources: [{ id: sourceId, invalid: true }] });
          } finally {
            stop();
            await undo();
          }
        });
      }

      it("a settled range is asked of the provider once, then served from the database", async () => {
        const { companyId, sourceId } = await connected();
        const sources = env().services.get("sources");
        const request = { ...declared.settled.query, range: declared.settled.range, timezone: "UTC" };
        const before = await upstreamCalls();
        const first = await sources.query(companyId, await sources.load(companyId, sourceId), request);
        expect(first.notice).toBeNull();
        const asked = before + (declared.callsPerQuery ?? 1);
        expect(await upstreamCalls()).toBe(asked);
        const again = await sources.query(companyId, await sources.load(companyId, sourceId), request);
        expect(again.table).toEqual(first.table);
        expect(await upstreamCalls()).toBe(asked);
      });

      it("cold queries: one upstream request per distinct query, however many widgets show it", async () => {
        const { client, sourceId } = await connected();
        const [one, two] = [query(5), query(6)];
        const before = await upstreamCalls();
        const response = await widgetData(
          client,
          [one, one, two, two].map((each) => instance(sourceId, each.type, each.inputs)),
          { ...liveRange(), comparison: false },
        );
        expect(response.statusCode, response.body).toBe(200);
        expect((await upstreamCalls()) - before).toBe(2 * (declared.callsPerQuery ?? 1));
      });
    },
    fakes.env,
  );
}
