import type { TLanguage } from "@app/core";
import { buildInstance, buildWidget } from "@app/core/widgets/test-fixtures";
import { expect } from "vitest";
import { buildDashboard, buildOwner, buildSource } from "../../../test/factories";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import type { TestClient, TestEnv } from "../../../test/harness";

/**
 * Test builder: an owner and a dashboard whose one widget is the Demo site harbor-outfitters' sessions by
 * channel, the site whose Organic Search collapses from Oct 19 to Oct 31, 2026 (DEMO_INCIDENTS).
 */
export async function harborDashboard(
  env: TestEnv,
  options: { name: string; insightsSummary: boolean; language?: TLanguage },
) {
  const owner = await buildOwner(env);
  const source = await buildSource(env, { company: owner.company });
  const widget = buildWidget({
    id: "channels",
    title: "Sessions by channel",
    instances: [
      buildInstance({
        type: "demo.analytics",
        config: "custom",
        sourceId: source.id,
        inputs: { property: "harbor-outfitters", dimension: "channel", metrics: ["sessions"] },
      }),
    ],
  });
  const dashboard = await buildDashboard(env, {
    company: owner.company,
    user: owner.user,
    name: options.name,
    widgets: [widget],
    save: {
      styles: { insightsSummary: options.insightsSummary },
      ...(options.language && { language: options.language }),
    },
  });
  return { owner, dashboard };
}

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
