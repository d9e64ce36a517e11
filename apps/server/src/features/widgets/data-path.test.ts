import type { TTable, TWidgetTypeConfig } from "@app/core";
import { describe, expect, it } from "vitest";
import { createMemoryRateLimitStore } from "../../infra/rate-limit-store";
import { mergeInstanceTables } from "./merge-tables";
import {
  createQueryRunner,
  createTableCache,
  normaliseInputs,
  queryCacheKey,
  stableJson,
  upstreamCallCount,
} from "./query-runner";

const table = (
  rows: Array<[string, number]>,
  dimension: TTable["dimension"] = { key: "date", label: "Date", kind: "date" },
): TTable => ({
  dimension,
  metrics: [{ key: "m", label: "M", format: "number" }],
  rows: rows.map(([value, n]) => ({ dimension: value, values: [n] })),
  totals: [rows.reduce((sum, [, n]) => sum + n, 0)],
});

describe("cache keys", () => {
  const config = {
    type: "t",
    label: "T",
    connector: "c",
    formats: ["table"],
    mergeWithoutDimension: false,
    params: [
      { key: "property", label: "P", kind: "select", required: true },
      { key: "flag", label: "F", kind: "boolean", required: true },
      {
        key: "campaign",
        label: "C",
        kind: "select",
        required: false,
        children: [{ key: "ad", label: "A", kind: "select", required: false }],
      },
      { key: "metrics", label: "M", kind: "multiselect", required: true },
    ],
  } satisfies TWidgetTypeConfig;

  it("keeps declared, non-empty inputs (false included) in sorted order", () => {
    const inputs = {
      metrics: ["b", "a"],
      property: "p",
      flag: false,
      campaign: "",
      ad: "x",
      calculatedMetrics: [],
      extra: 1,
    };
    expect(normaliseInputs(config, inputs)).toEqual({ ad: "x", flag: false, metrics: ["b", "a"], property: "p" });
    expect(Object.keys(normaliseInputs(config, inputs))).toEqual(["ad", "flag", "metrics", "property"]);
  });

  it("stableJson ignores key order but not array order", () => {
    expect(stableJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(stableJson({ a: 1, b: 2 })).toBe(stableJson({ b: 2, a: 1 }));
    expect(stableJson([1, 2])).not.toBe(stableJson([2, 1]));
  });

  it("starts with the source id, so a source's entries can be dropped together", () => {
    const key = queryCacheKey({
      sourceId: "s1",
      type: "t",
      inputs: { a: 1 },
      range: { startDate: "2025-01-01", endDate: "2025-01-31" },
      timezone: "UTC",
    });
    expect(key).toBe('s1|t|2025-01-01|2025-01-31|UTC|{"a":1}');
  });
});

describe("query runner", () => {
  it("joins concurrent identical calls, caches results and never caches failures", async () => {
    const runner = createQueryRunner(createTableCache());
    let release: (value: TTable) => void = () => {};
    let calls = 0;
    const call = () => {
      calls += 1;
      return new Promise<TTable>((resolve) => {
        release = resolve;
      });
    };
    const before = upstreamCallCount();
    const pending = Array.from({ length: 10 }, () => runner.run("k", call));
    await new Promise((resolve) => setImmediate(resolve));
    expect(runner.inflightCount()).toBe(1);
    release(table([["2025-01-01", 1]]));
    const results = await Promise.all(pending);
    expect(calls).toBe(1);
    expect(upstreamCallCount() - before).toBe(1);
    expect(new Set(results).size).toBe(1);
    await runner.run("k", call);
    expect(calls).toBe(1);

    let failures = 0;
    const failing = async (): Promise<TTable> => {
      failures += 1;
      throw new Error("provider down");
    };
    await expect(Promise.all([runner.run("f", failing), runner.run("f", failing)])).rejects.toThrow("provider down");
    await expect(runner.run("f", failing)).rejects.toThrow("provider down");
    expect(failures).toBe(2);
    expect(runner.inflightCount()).toBe(0);
  });
});

describe("query runner across processes", () => {
  // Two processes' runners over the shared infrastructure (the table cache and the leases, which are
  // Redis when distributed; the leases' own cross-process test is the RateLimitStore contract).
  const processes = (flightLeaseMs?: number) => {
    const cache = createTableCache();
    const leases = createMemoryRateLimitStore();
    return [createQueryRunner(cache, leases, flightLeaseMs), createQueryRunner(cache, leases, flightLeaseMs)] as const;
  };

  it("one process asks the provider; the other waits for its answer in the shared cache", async () => {
    const [a, b] = processes();
    let calls = 0;
    const call = async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 80));
      return table([["2025-01-01", 7]]);
    };
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? a : b).run("cold", call)));
    expect(calls).toBe(1);
    expect(results.map((result) => result.rows[0]?.values[0])).toEqual([7, 7, 7, 7, 7, 7]);
  });

  it("the answer is in the shared cache before the lease is given back, even when storing it is slow (Redis)", async () => {
    const cache = createTableCache();
    const slow = {
      ...cache,
      async set(key: string, value: TTable) {
        await new Promise((resolve) => setTimeout(resolve, 60));
        await cache.set(key, value);
      },
    };
    const leases = createMemoryRateLimitStore();
    const [a, b] = [createQueryRunner(slow, leases), createQueryRunner(slow, leases)];
    let calls = 0;
    const call = async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 30));
      return table([["2025-01-01", 9]]);
    };
    await Promise.all([a.run("slow", call), b.run("slow", call), b.run("slow", call)]);
    expect(calls).toBe(1);
  });

  it("when the asking process fails, a waiting one asks itself instead of waiting forever", async () => {
    const [a, b] = processes();
    const failing = async (): Promise<TTable> => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw new Error("provider down");
    };
    const first = a.run("k", failing);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = b.run("k", async () => table([["2025-01-01", 3]]));
    await expect(first).rejects.toThrow("provider down");
    expect((await second).rows[0]?.values[0]).toBe(3);
  });

  it("a process that died holding the call lets the others ask once its lease lapses", async () => {
    const [a, b] = processes(150);
    // Never settles: the holder is gone.
    void a.run("k", () => new Promise<TTable>(() => {}));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await b.run("k", async () => table([["2025-01-01", 5]]))).rows[0]?.values[0]).toBe(5);
  });
});

describe("mergeInstanceTables", () => {
  it("joins on dates in calendar order, null where an instance lacks a day", () => {
    const merged = mergeInstanceTables(
      [
        {
          prefix: "a",
          table: table([
            ["2025-01-02", 2],
            ["2025-01-01", 1],
          ]),
        },
        {
          prefix: "b",
          table: table([
            ["2025-01-03", 30],
            ["2025-01-01", 10],
          ]),
        },
      ],
      true,
    );
    expect(merged.metrics.map((m) => `${m.key}:${m.label}`)).toEqual(["a.m:M (a)", "b.m:M (b)"]);
    expect(merged.rows).toEqual([
      { dimension: "2025-01-01", values: [1, 10] },
      { dimension: "2025-01-02", values: [2, null] },
      { dimension: "2025-01-03", values: [null, 30] },
    ]);
    expect(merged.totals).toEqual([3, 40]);
  });

  it("keeps first-appearance order for text dimensions and summarises different dimensions", () => {
    const country = { key: "country", label: "Country", kind: "string" } as const;
    const joined = mergeInstanceTables(
      [
        {
          prefix: "a",
          table: table(
            [
              ["US", 5],
              ["DE", 3],
            ],
            country,
          ),
        },
        {
          prefix: "b",
          table: table(
            [
              ["FR", 1],
              ["US", 2],
            ],
            country,
          ),
        },
      ],
      true,
    );
    expect(joined.rows.map((row) => row.dimension)).toEqual(["US", "DE", "FR"]);
    const summary = mergeInstanceTables(
      [
        { prefix: "a", table: table([["US", 5]], country) },
        { prefix: "b", table: table([["2025-01-01", 2]]) },
      ],
      true,
    );
    expect(summary).toMatchObject({ dimension: null, rows: [], totals: [5, 2] });
    expect(mergeInstanceTables([{ prefix: "a", table: table([["US", 5]], country) }], false).metrics[0].label).toBe(
      "M",
    );
  });
});
