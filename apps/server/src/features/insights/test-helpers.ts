import type { TAutomaticReport, TLanguage } from "@app/core";
import { buildInstance, buildWidget } from "@app/core/widgets/test-fixtures";
import { expect } from "vitest";
import { buildDashboard, buildOwner, buildReport, buildSource } from "../../../test/factories";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import type { TestClient, TestEnv } from "../../../test/harness";
import type { ReceivedMail } from "../../../test/smtp-sink";
import { until } from "../../../test/wait";
import { manualClock } from "../../infra/clock";

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
 * The clock on Monday 26 October 2026, after the Demo site's first week of collapsed Organic Search
 * (DEMO_INCIDENTS): a report's LAST_WEEK is Oct 19–25, compared with Oct 12–18. And the jobs started:
 * a report's e-mail is sent by its job, as in production.
 */
export async function mondayAfterTheCollapse(env: TestEnv) {
  (env.ctx as TestEnv["ctx"] & { clock: unknown }).clock = manualClock(new Date("2026-10-26T10:00:00Z"));
  await env.ctx.jobs.start();
}

/**
 * A Harbor dashboard (harborDashboard) and its weekly report (LAST_WEEK, no preview, no PDF) sent now;
 * its e-mail once the test's SMTP sink (`mailsFor`) has it.
 */
export async function sendHarborReport(
  env: TestEnv,
  mailsFor: (name: string) => ReceivedMail[],
  options: Parameters<typeof harborDashboard>[1],
) {
  const { owner, dashboard } = await harborDashboard(env, options);
  const report: TAutomaticReport = await buildReport(env, {
    company: owner.company,
    dashboard,
    input: { timezone: "UTC", with_preview: false, with_pdf: false, date_range: "LAST_WEEK" },
  });
  const sent = await owner.client.api("POST", `/api/automatic-reports/${report.id}/send`, {});
  expect(sent.statusCode).toBe(200);
  await until(() => mailsFor(options.name).length === 1, 60_000, 200);
  return { owner, dashboard, mail: mailsFor(options.name)[0] };
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
