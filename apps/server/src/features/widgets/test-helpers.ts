import { expect } from "vitest";
import type { TestClient } from "../../../test/harness";

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
