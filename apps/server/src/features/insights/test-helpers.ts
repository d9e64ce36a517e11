import type { TLanguage } from "@app/core";
import { buildInstance, buildWidget } from "@app/core/widgets/test-fixtures";
import { buildDashboard, buildOwner, buildSource } from "../../../test/factories";
import type { TestEnv } from "../../../test/harness";

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
