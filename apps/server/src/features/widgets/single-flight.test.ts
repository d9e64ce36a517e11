import { expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { describeEachDb } from "../../../test/harness";
import { upstreamCallCount } from "./query-runner";
import { createDemoSource, dataRequest, demoInstance } from "./test-helpers";

describeEachDb("widget data: cache and single-flight", (env) => {
  it("20 identical concurrent requests make one upstream call per distinct query; a cached repeat makes none", async () => {
    const { client: owner } = await buildOwner(env());
    const sourceId = await createDemoSource(owner);
    await owner.pageData();
    const body = dataRequest([demoInstance(sourceId, { metrics: ["sessions", "revenue"] })], {
      startDate: "2025-05-01",
      endDate: "2025-05-31",
    });

    const before = upstreamCallCount();
    const responses = await Promise.all(Array.from({ length: 20 }, () => owner.api("POST", "/api/widgets/data", body)));
    // Two distinct queries: the range and its default comparison range.
    expect(upstreamCallCount() - before).toBe(2);
    expect(new Set(responses.map((r) => r.statusCode))).toEqual(new Set([200]));
    expect(new Set(responses.map((r) => r.body)).size).toBe(1);

    const cached = upstreamCallCount();
    await Promise.all(Array.from({ length: 5 }, () => owner.api("POST", "/api/widgets/data", body)));
    expect(upstreamCallCount() - cached).toBe(0);
  });

  it("distinct queries each make one call; presentation-only changes reuse the cache", async () => {
    const { client: owner } = await buildOwner(env());
    const sourceId = await createDemoSource(owner);
    await owner.pageData();
    const ranges = ["2025-06-01", "2025-06-02", "2025-06-03", "2025-06-04"];
    const before = upstreamCallCount();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        owner.api(
          "POST",
          "/api/widgets/data",
          dataRequest([demoInstance(sourceId)], { startDate: ranges[i % 4], endDate: "2025-06-30", comparison: false }),
        ),
      ),
    );
    expect(upstreamCallCount() - before).toBe(4);

    // Calculated metrics, prefix, config, currency and key order are applied after the cache.
    const reuse = upstreamCallCount();
    const variant = demoInstance(
      sourceId,
      {
        metrics: ["sessions"],
        calculatedMetrics: [{ id: "x", name: "X", type: "numeric", expression: "sessions * 2" }],
      },
      { prefix: "z", config: "custom", currency: "EUR" },
    );
    const reordered = {
      ...variant,
      inputs: { metrics: ["sessions"], dimension: "date", property: "acme-software", unrelated: "noise" },
    };
    for (const inst of [variant, reordered]) {
      const response = await owner.api(
        "POST",
        "/api/widgets/data",
        dataRequest([inst], { startDate: ranges[0], endDate: "2025-06-30", comparison: false }),
      );
      expect(response.statusCode).toBe(200);
    }
    expect(upstreamCallCount() - reuse).toBe(0);

    // A changed source drops its cached tables.
    expect((await owner.api("PUT", `/api/sources/${sourceId}`, {})).statusCode).toBe(200);
    const afterChange = upstreamCallCount();
    await owner.api(
      "POST",
      "/api/widgets/data",
      dataRequest([demoInstance(sourceId)], { startDate: ranges[0], endDate: "2025-06-30", comparison: false }),
    );
    expect(upstreamCallCount() - afterChange).toBe(1);
  });
});
