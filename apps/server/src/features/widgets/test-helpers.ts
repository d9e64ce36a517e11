import { expect } from "vitest";
import type { TestClient, TestEnv } from "../../../test/harness";

/** Test builders for the sources and widget-data suites. */

export async function createDemoSource(client: TestClient): Promise<string> {
  const response = await client.api("POST", "/api/sources", { name: "demo" });
  expect(response.statusCode).toBe(200);
  return response.json().data.id;
}

export async function uploadCsv(client: TestClient, text: string, filename = "report.csv") {
  return client.apiMultipart(
    "POST",
    "/api/sources",
    { name: "csv" },
    { file: { filename, type: "text/csv", data: Buffer.from(text) } },
  );
}

type Inputs = Record<string, unknown>;

export function instance(sourceId: string, type: string, inputs: Inputs, overrides: Record<string, unknown> = {}) {
  return {
    id: `i-${Math.random().toString(36).slice(2, 8)}`,
    type,
    prefix: "a",
    sourceId,
    config: type,
    currency: null,
    accounts: [],
    inputs,
    metricsOptions: {},
    ...overrides,
  };
}

export function demoInstance(sourceId: string, inputs: Inputs = {}, overrides: Record<string, unknown> = {}) {
  return instance(
    sourceId,
    "demo.analytics",
    { property: "acme-software", dimension: "date", metrics: ["sessions"], ...inputs },
    overrides,
  );
}

export interface Range {
  startDate: string;
  endDate: string;
  compareStartDate?: string | null;
  compareEndDate?: string | null;
  comparison?: boolean;
}

export function dataRequest(instances: unknown[], range: Range = { startDate: "2025-03-01", endDate: "2025-03-31" }) {
  return { instances, timezone: "UTC", ...range };
}

export async function widgetData(client: TestClient, instances: unknown[], range?: Range) {
  return client.api("POST", "/api/widgets/data", dataRequest(instances, range));
}

/** A provider query a stale-result scenario stores and then asks again. */
export interface StoredQuery {
  companyId: string;
  sourceId: string;
  type: string;
  inputs: Inputs;
  range: { startDate: string; endDate: string };
}

/**
 * The first half of every "the provider fails for now" scenario: the query's result is stored (the
 * provider answers), then aged past the 15-minute freshness, so the next ask goes to the provider again.
 */
export async function storeAgedResult(env: TestEnv, query: StoredQuery, ageMinutes = 20) {
  const sources = env.services.get("sources");
  const stored = await sources.query(query.companyId, await sources.load(query.companyId, query.sourceId), {
    type: query.type,
    inputs: query.inputs,
    range: query.range,
    timezone: "UTC",
  });
  const fetchedAt = new Date(Date.now() - ageMinutes * 60_000).toISOString();
  await env.ctx.db
    .updateTable("provider_results")
    .set({ fetched_at: fetchedAt })
    .where("source_id", "=", query.sourceId)
    .execute();
  return { stored, fetchedAt };
}

/**
 * The second half: asked again while the provider fails, the widget gets the stored numbers with the
 * notice a viewer reads ("Data as of … — {message}"), and the source stays valid (no re-authorising).
 */
export async function expectStoredWithNotice(
  client: TestClient,
  query: StoredQuery,
  stored: Awaited<ReturnType<typeof storeAgedResult>>,
  message: string,
) {
  const response = await widgetData(client, [instance(query.sourceId, query.type, query.inputs)], {
    ...query.range,
    comparison: false,
  });
  expect(response.statusCode, response.body).toBe(200);
  const data = response.json().data;
  expect(data.current.totals).toEqual(stored.stored.table.totals);
  expect(data.notices).toEqual([{ instanceId: expect.any(String), asOf: stored.fetchedAt, message }]);
  const source = (await client.api("GET", "/api/sources"))
    .json()
    .data.find((each: { id: string }) => each.id === query.sourceId);
  expect(source?.invalid).toBe(false);
}
