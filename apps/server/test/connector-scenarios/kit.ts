import { shiftDay, type TTable } from "@app/core";
import { afterAll, expect, it } from "vitest";
import {
  expectStoredWithNotice,
  instance,
  type StoredQuery,
  storeAgedResult,
  widgetData,
} from "../../src/features/widgets/test-helpers";
import { unseal } from "../../src/infra/security";
import { buildOwner } from "../factories";
import { type FakeCall, type FakeFault, type FakePart, fakesForFile, type RunningFakes } from "../fakes/app";
import { connectOAuth } from "../fakes/oauth-connect";
import { describeEachDb, type TestClient, type TestEnv } from "../harness";
import { liveRange } from "../ranges";
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
  /**
   * How the provider pages a query's rows; absent when the numbers come in one answer (the declaration's
   * comment says why, docs/adding-a-connector.md lists it).
   */
  paging?: ScenarioPaging<P>;
  /**
   * A listing the provider pages that is not by day (deals, campaigns): its items are summed into the
   * table, so the kit fills the fake with as many items as each case needs. Absent where the numbers come
   * in one answer (the declaration's comment says why).
   */
  listing?: ScenarioListing<P>;
  /**
   * The range's first and last days in the viewer's zone: a query by day, and the days a request the
   * fake received asked for, as the viewer reads them (dates as sent, or the viewer's days of the
   * instants sent); null for any other request. Absent when the provider takes no range.
   */
  zone?: {
    query: ScenarioQuery;
    askedDays(call: FakeCall, zone: string): { first: string; last: string } | null;
    /**
     * The values the fake holds for one of the viewer's days, where it holds them by day: the first and
     * last rows must carry them (a day's numbers shifted onto its neighbour fail).
     */
    dayValues?(day: string): (number | null)[];
    /**
     * The provider answers only for recent days (LinkedIn's organization statistics: 12 months): the two
     * ranges are then the last weeks' instead of fixed days of 2025, which would fall outside in time.
     */
    recentOnly?: boolean;
  };
  /**
   * Money columns in the account's currency as the provider gives it: a query with money columns and
   * the account's currency in the fake (not USD, so a default cannot pass for it). Absent: no money metric.
   */
  currency?: {
    query: ScenarioQuery;
    code: string;
    range?: { startDate: string; endDate: string };
    /** Puts the account in `code` where the fake's accounts are in dollars; returns what undoes it. */
    arrange?(fakes: RunningFakes<P>): () => void;
  };
}

/**
 * A provider's paging, as the fake steers it: the query is by day, so a range of n days is n rows, and
 * the fake is told how many rows a page holds. The kit asks one page exactly, one page and a row, and
 * several pages, and compares each table with the same query answered in one page.
 */
export interface ScenarioPaging<P extends Parts> {
  /** A query by day (its rows are the range's days). */
  query: ScenarioQuery;
  /**
   * Either makes the fake answer at most `size` rows a page from now on (returns what undoes it), or is
   * the connector's own page size, which the fake honours as the provider does (the cases are then that
   * many days, one more, and two pages and a row; each day's first metric must add up to the total).
   */
  pageSize: ((fakes: RunningFakes<P>, size: number) => () => void) | number;
  /** The requests that fetch a page (default: `upstream`). */
  requests?(call: FakeCall): boolean;
  /** Listings of the query's days, each paged on its own (two reports asked side by side; default 1). */
  listings?: number;
  /** Days one request may span: a longer range is asked in windows, each paged on its own (default: no bound). */
  windowDays?: number;
  /**
   * The bound on pages one listing reads, and what the connector does past it: keeps the rows it read
   * (`kept`) or refuses the range in words (`refused`, an error kind). Absent when no query can reach it
   * (the declaration says why).
   */
  cap?: { pages: number; beyond: "kept" | "refused" };
}

/**
 * A paged listing whose items are not days: the fake is filled with n items over the range, each adding
 * exactly 1 to the query's first metric, so the total says every item was read once (none lost at a
 * page's edge, none read twice). The kit asks n = one page exactly, one page and an item, two pages and
 * an item, and counts the listing's requests: exactly the pages.
 */
export interface ScenarioListing<P extends Parts> {
  /** A query over `range` whose first metric's total is the number of items in the listing. */
  query: ScenarioQuery;
  range: { startDate: string; endDate: string };
  /** Puts exactly `n` items in the listing over the range (and none else in it); returns what undoes it. */
  fill(fakes: RunningFakes<P>, n: number): () => void;
  /**
   * The connector's own page size, which the fake honours as the provider does, or a steer making the fake
   * answer at most `size` items a page (returns what undoes it; the kit then pages by 4).
   */
  pageSize: number | ((fakes: RunningFakes<P>, size: number) => () => void);
  /** The requests that fetch a page of the listing. */
  requests(call: FakeCall): boolean;
  /**
   * The provider says neither a total nor whether a page is the last: a full last page is followed by
   * one empty answer, which is then the only request after the last page allowed.
   */
  noEndMarker?: boolean;
}

/** Connects an OAuth connector through its fake's consent screen, as the sources page's popup does; its id. */
export async function connectByConsent(client: TestClient, connector: string, options?: { account?: string }) {
  const connected = await connectOAuth(client, connector, options);
  expect(connected.result).toMatchObject({ ok: true, connector });
  return connected.result.sourceId as string;
}

/** The access token a source holds (sealed in the database), for a fake to refuse from now on. */
export async function storedAccessToken(env: TestEnv, sourceId: string): Promise<string> {
  const row = await env.ctx.db
    .selectFrom("sources")
    .select("credentials")
    .where("id", "=", sourceId)
    .executeTakeFirstOrThrow();
  return JSON.parse(unseal(env.ctx.config.appKey, row.credentials ?? "")).access_token ?? "";
}

/** Makes a fake refuse the source's access token (a set of refused tokens); returns what undoes it. */
export async function refuseStoredToken(refused: Set<string>, env: TestEnv, sourceId: string) {
  const token = await storedAccessToken(env, sourceId);
  refused.add(token);
  return () => {
    refused.delete(token);
  };
}

/** Zones far from UTC on either side: a connector shifting days by UTC is a day off in both. */
export const FAR_ZONES = ["Pacific/Auckland", "America/Los_Angeles"] as const;

/** `days` days from `start` (a settled range: 2025). */
const rangeOf = (start: string, days: number) => ({ startDate: start, endDate: shiftDay(start, days - 1) });

/** The first day of a recent zone range: 40 or 25 days before today (UTC), wholly in the past everywhere. */
const recentStart = (index: number) => shiftDay(new Date().toISOString().slice(0, 10), index === 0 ? -40 : -25);

/** Every day of a range, in order. */
function daysOf(range: { startDate: string; endDate: string }): string[] {
  const days: string[] = [];
  for (let day = range.startDate; day <= range.endDate; day = shiftDay(day, 1)) days.push(day);
  return days;
}

/** Requests a paged listing of `rows` rows makes, `size` a page, asked in windows of `windowDays` days. */
function pagesFor(rows: number, size: number, windowDays = Number.POSITIVE_INFINITY): number {
  let pages = 0;
  for (let left = rows; left > 0; left -= windowDays) pages += Math.ceil(Math.min(left, windowDays) / size);
  return pages;
}

export function connectorScenarios<P extends Parts>(declared: ConnectorScenarios<P>) {
  const fakes = fakesForFile(afterAll, declared.fakes);
  const faults = async () => ((await fakes.current()).parts[declared.part] as unknown as Faulting).failNext;
  const upstreamCalls = async () => (await fakes.current()).calls.filter(declared.upstream).length;
  /** The fake's requests matching `which` from the `from`th call on (the calls since a count taken before). */
  const callsSince = async (from: number, which: (call: FakeCall) => boolean) =>
    (await fakes.current()).calls.slice(from).filter(which);
  const callCount = async () => (await fakes.current()).calls.length;
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

      /** A query asked of the provider now (nothing stored for it: the source's stored results are dropped). */
      const fresh = async (
        at: { companyId: string; sourceId: string },
        asked: ScenarioQuery,
        range: { startDate: string; endDate: string },
        timezone = "UTC",
      ): Promise<TTable> => {
        await env().ctx.db.deleteFrom("provider_results").where("source_id", "=", at.sourceId).execute();
        const sources = env().services.get("sources");
        const loaded = await sources.load(at.companyId, at.sourceId);
        const answer = await sources.query(at.companyId, loaded, { ...asked, range, timezone });
        expect(answer.notice).toBeNull();
        return answer.table;
      };

      if (declared.paging) {
        const paging = declared.paging;
        const paged = paging.requests ?? declared.upstream;
        const steer = paging.pageSize;
        if (typeof steer === "number") {
          it.each([
            { rows: steer, start: "2025-01-05", title: "exactly one page" },
            { rows: steer + 1, start: "2025-01-05", title: "one page and a row" },
            { rows: 2 * steer + 1, start: "2025-01-05", title: "several pages" },
          ])("paging, $title: every row once, no request after the last page", async ({ rows, start }) => {
            const at = await connected();
            const range = rangeOf(start, rows);
            const from = await callCount();
            const table = await fresh(at, paging.query, range);
            expect(table.rows.map((row) => row.dimension)).toEqual(daysOf(range));
            // A day lost at a page's edge would leave a gap the total does not have; one read twice, a surplus.
            const sum = table.rows.reduce((total, row) => total + (row.values[0] ?? 0), 0);
            expect(sum).toBeCloseTo(table.totals[0] ?? Number.NaN, 6);
            expect((await callsSince(from, paged)).length).toBe(
              pagesFor(rows, steer, paging.windowDays) * (paging.listings ?? 1),
            );
          });
        } else {
          /** The table of `rows` days read `size` a page, beside the same range read in one page. */
          const readPaged = async (rows: number, size: number, start: string) => {
            const at = await connected();
            const range = rangeOf(start, rows);
            const whole = await fresh(at, paging.query, range);
            const undo = steer(await fakes.current(), size);
            try {
              const from = await callCount();
              const table = await fresh(at, paging.query, range);
              return { range, whole, table, requests: (await callsSince(from, paged)).length };
            } finally {
              undo();
            }
          };

          it.each([
            { rows: 6, size: 6, start: "2025-03-02", title: "exactly one page" },
            { rows: 7, size: 6, start: "2025-04-06", title: "one page and a row" },
            { rows: 11, size: 3, start: "2025-05-04", title: "several pages" },
          ])("paging, $title: every row once, no request after the last page", async ({ rows, size, start }) => {
            const { range, whole, table, requests } = await readPaged(rows, size, start);
            // The one-page answer has every day; the paged one the same rows and numbers, none twice or lost.
            expect(whole.rows.map((row) => row.dimension)).toEqual(daysOf(range));
            expect(table.rows).toEqual(whole.rows);
            expect(table.totals).toEqual(whole.totals);
            expect(requests).toBe(pagesFor(rows, size, paging.windowDays) * (paging.listings ?? 1));
          });
        }

        if (paging.cap) {
          const cap = paging.cap;
          it(`paging: at most ${cap.pages} pages are read (${cap.beyond === "kept" ? "the rows read are kept" : "a longer answer is refused in words"})`, async () => {
            const at = await connected();
            // Twice the bound's days, a row a page: more pages than the bound, even with days without rows.
            const range = rangeOf("2025-08-03", cap.pages * 2);
            const whole = await fresh(at, paging.query, range);
            if (typeof steer === "number")
              throw new Error("a page bound is proven with a fake whose page size is steered");
            const undo = steer(await fakes.current(), 1);
            try {
              const from = await callCount();
              if (cap.beyond === "kept") {
                // The pages read arrive whole; the rest is not asked for (a provider saying "more" forever).
                const table = await fresh(at, paging.query, range);
                expect(table.rows.slice(0, cap.pages)).toEqual(whole.rows.slice(0, cap.pages));
              } else {
                await expect(fresh(at, paging.query, range)).rejects.toMatchObject({ kind: "input" });
              }
              expect((await callsSince(from, paged)).length).toBe(cap.pages);
            } finally {
              undo();
            }
          });
        }
      }

      if (declared.listing) {
        const listing = declared.listing;
        const size = typeof listing.pageSize === "number" ? listing.pageSize : 4;
        it.each([
          { items: size, title: "exactly one page" },
          { items: size + 1, title: "one page and an item" },
          { items: 2 * size + 1, title: "several pages" },
        ])("paging a listing, $title: every item once, no request after the last page", async ({ items }) => {
          const at = await connected();
          const running = await fakes.current();
          const undoSize = typeof listing.pageSize === "number" ? () => {} : listing.pageSize(running, size);
          const undoFill = listing.fill(running, items);
          try {
            const from = await callCount();
            const table = await fresh(at, listing.query, listing.range);
            expect(table.totals[0]).toBe(items);
            const emptyLast = listing.noEndMarker && items % size === 0 ? 1 : 0;
            expect((await callsSince(from, listing.requests)).length).toBe(Math.ceil(items / size) + emptyLast);
          } finally {
            undoFill();
            undoSize();
          }
        });
      }

      if (declared.zone) {
        const zone = declared.zone;
        it.each(
          FAR_ZONES.map((timezone, index) => ({
            timezone,
            range: rangeOf(zone.recentOnly ? recentStart(index) : (["2025-06-01", "2025-07-06"][index] ?? ""), 10),
          })),
        )(
          "the range's first and last days in the viewer's zone ($timezone): asked as such, their rows in the table",
          async ({ timezone, range }) => {
            const at = await connected();
            const from = await callCount();
            const table = await fresh(at, zone.query, range, timezone);
            const asked = (await callsSince(from, () => true))
              .map((call) => zone.askedDays(call, timezone))
              .filter((days) => days !== null);
            expect(asked.length).toBeGreaterThan(0);
            expect(asked.map((days) => days.first).sort()[0]).toBe(range.startDate);
            expect(
              asked
                .map((days) => days.last)
                .sort()
                .at(-1),
            ).toBe(range.endDate);
            expect(table.rows.map((row) => row.dimension)).toEqual(daysOf(range));
            if (zone.dayValues) {
              expect(table.rows[0]?.values).toEqual(zone.dayValues(range.startDate));
              expect(table.rows.at(-1)?.values).toEqual(zone.dayValues(range.endDate));
            }
          },
        );
      }

      if (declared.currency) {
        const currency = declared.currency;
        it(`money columns are in the account's currency as the provider gives it (${currency.code})`, async () => {
          const undo = currency.arrange?.(await fakes.current());
          try {
            const { client, sourceId } = await connected();
            const response = await widgetData(
              client,
              [instance(sourceId, currency.query.type, currency.query.inputs)],
              {
                ...(currency.range ?? liveRange()),
                comparison: false,
              },
            );
            expect(response.statusCode, response.body).toBe(200);
            const metrics: TTable["metrics"] = response.json().data.current.metrics;
            expect(metrics.some((metric) => metric.format === "money")).toBe(true);
            for (const metric of metrics) {
              if (metric.format === "money") expect(metric.currency, metric.key).toBe(currency.code);
              else expect(metric.currency ?? null, metric.key).toBeNull();
            }
          } finally {
            undo?.();
          }
        });
      }
    },
    fakes.env,
  );
}
