import { buildInstance, buildWidget } from "@app/core/widgets/test-fixtures";
import { expect } from "vitest";
import { buildDashboard, buildOwner } from "../../../test/factories";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import type { TestClient, TestEnv } from "../../../test/harness";

/**
 * For the insights tests of a connector's own widgets (in its folder: `connectors/<key>/insights.test.ts`):
 * a dashboard of one single-number widget, and the insight line it gets.
 */

/** An owner with a dashboard of one single-number widget (no dimension) of `type` over `inputs`. */
export async function singleNumber(env: TestEnv, connector: string, type: string, inputs: Record<string, unknown>) {
  const owner = await buildOwner(env);
  const { result } = await connectOAuth(owner.client, connector);
  expect(result).toMatchObject({ ok: true, connector });
  const widget = buildWidget({
    id: "number",
    hash: "number",
    title: "Sessions",
    format: "summary",
    instances: [buildInstance({ id: "n1", type, sourceId: result.sourceId, inputs: { dimension: "", ...inputs } })],
  });
  const dashboard = await buildDashboard(env, { company: owner.company, user: owner.user, widgets: [widget] });
  return { client: owner.client, permalink: dashboard.permalink };
}

export async function lineOf(
  client: TestClient,
  permalink: string,
  range: Record<string, string>,
): Promise<string | null> {
  const response = await client.api("POST", `/api/dashboards/${permalink}/insights`, range);
  expect(response.statusCode).toBe(200);
  return response.json().data.widgets.number;
}
