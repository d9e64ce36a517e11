import { type ChangeWindow, shiftDay, type TCampaign, type TCampaignDomain, todayInTimezone } from "@app/core";
import { expect } from "vitest";
import type { TestClient, TestEnv } from "../../../test/harness";

export { rankDay } from "../../../test/fakes/kit";

import { BACKFILL_JOB, type TBackfillPayload } from "./metrics";
import { CONNECTED_LAG_DAYS } from "./providers/connected";

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

/** One domain of a group as the group page shows it. */
export async function shownDomain(client: TestClient, groupId: string, domainId: string) {
  return (await showGroup(client, groupId)).domains.find((domain) => domain.id === domainId);
}

/** The connected sources' latest complete day: the slowest connector's lag before today, in UTC. */
export const connectedLatestDay = (env: TestEnv) =>
  shiftDay(todayInTimezone("UTC", env.ctx.clock.now()), -CONNECTED_LAG_DAYS);

/** One metric's stored values by day. */
export const series = (rows: Awaited<ReturnType<typeof storedRows>>, metric: string) =>
  new Map(rows.filter((row) => row.metric === metric).map((row) => [row.day, row.value]));
