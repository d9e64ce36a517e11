import type { ChangeWindow, TCampaign, TCampaignDomain } from "@app/core";
import { expect } from "vitest";
import type { TestClient, TestEnv } from "../../../test/harness";
import { BACKFILL_JOB, type TBackfillPayload } from "./metrics";

/** Steps the Mission Control tests share: groups and domains through the API, jobs run by hand. */

/** A group made through the API; its metrics come from the Demo provider unless `extra` says otherwise. */
export async function createGroup(
  client: TestClient,
  name: string,
  extra: Record<string, unknown> = { metrics_source: "demo" },
): Promise<TCampaign> {
  const response = await client.api("POST", "/api/campaigns", { name, ...extra });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

export async function addDomain(client: TestClient, groupId: string, domain: string): Promise<TCampaignDomain> {
  const response = await client.api("POST", `/api/campaigns/${groupId}/domains`, { domain });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

export async function showGroup(client: TestClient, groupId: string, window?: ChangeWindow): Promise<TCampaign> {
  const response = await client.api("GET", `/api/campaigns/${groupId}${window ? `?window=${window}` : ""}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

/** Runs the backfill job adding the domain queued, as a worker would. */
export async function runBackfill(env: TestEnv, domainId: string): Promise<void> {
  const waiting = await env.ctx.jobs.list(BACKFILL_JOB, "waiting", 1000);
  const job = waiting.find((record) => (record.payload as TBackfillPayload).domainId === domainId);
  expect(job, `a backfill job for ${domainId}`).toBeDefined();
  await env.services.get("campaigns").metrics.backfill(job?.payload as TBackfillPayload);
}

/** The domain's stored days, by metric then day; values as numbers (PostgreSQL returns numerics as text). */
export async function storedRows(env: TestEnv, domainId: string) {
  const rows = await env.ctx.db
    .selectFrom("domain_metric_days")
    .select(["company_id", "metric", "day", "value", "provider"])
    .where("campaign_domain_id", "=", domainId)
    .orderBy("metric")
    .orderBy("day")
    .execute();
  return rows.map((row) => ({ ...row, value: Number(row.value) }));
}
