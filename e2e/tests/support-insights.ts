import type { Page } from "@playwright/test";
import type { TInteractiveWidget } from "../../packages/core/src/contract/dashboards";
import { buildInstance, buildPassiveWidget, buildWidget } from "../../packages/core/src/widgets/test-fixtures";
import { callForm } from "./support-api";
import { signUp } from "./support-auth";
import { connectDemo, createDashboard } from "./support-dashboard";

/**
 * A dashboard over the Demo site's scripted incident (Organic Search collapses from Oct 19 to Oct 31,
 * 2026), made through the API the dashboard screen saves with: what the insights, client-language and
 * client-view specs read.
 */

type Json = Record<string, unknown>;

/** One widget of the dashboard: its id (also its hash), title, format and the Demo query's inputs. */
export interface DemoWidget {
  id: string;
  title: string;
  format: string;
  inputs: Json;
  width?: number;
  height?: number;
  /** Extra widget fields (goals, formatOptions…). */
  extra?: Json;
  /** A text card (a passive widget) saying this instead of a Demo query. */
  text?: string;
}

function demoWidget(sourceId: string, spec: DemoWidget, order: number): Json {
  const card = {
    id: spec.id,
    order,
    hash: spec.id,
    width: spec.width ?? 2,
    height: spec.height ?? 2,
    title: spec.title,
  };
  if (spec.text !== undefined) return buildPassiveWidget({ ...card, inputs: { description: spec.text } });
  return {
    ...buildWidget({
      ...card,
      format: spec.format as TInteractiveWidget["format"],
      instances: [
        buildInstance({
          id: `${spec.id}-a`,
          type: "demo.analytics",
          sourceId,
          config: "custom",
          inputs: { property: "harbor-outfitters", ...spec.inputs },
        }),
      ],
    }),
    ...spec.extra,
  };
}

/**
 * Sessions by channel (a table: Organic Search's fall is its biggest movement) and by day (a line): the
 * two cards the insights specs read, on the owner's screen and the client's public view alike.
 */
export const SESSIONS_BY_CHANNEL_AND_DAY: DemoWidget[] = [
  {
    id: "channels",
    title: "Sessions by channel",
    format: "table",
    inputs: { dimension: "channel", metrics: ["sessions"] },
  },
  {
    id: "days",
    title: "Sessions by day",
    format: "chart:line",
    inputs: { dimension: "date", metrics: ["sessions"] },
  },
];

export interface IncidentDashboard {
  /** /dashboards/{permalink} */
  path: string;
  permalink: string;
  id: string;
}

/**
 * Signs up, connects the Demo data and makes a dashboard of `widgets` over Oct 19 – Oct 31, 2026 with the
 * insights summary on; `form` adds or overrides fields of the dashboard save (language, styles…).
 */
export async function incidentDashboard(
  page: Page,
  name: string,
  widgets: DemoWidget[],
  form: Record<string, string> = {},
): Promise<IncidentDashboard> {
  await signUp(page);
  await connectDemo(page);
  const path = await createDashboard(page, name);
  const permalink = path.split("/")[2];
  const sources = (await callForm(page, "GET", "/api/sources")).data as Json[];
  const sourceId = sources[0].id as string;
  const dashboard = (await callForm(page, "GET", `/api/dashboards/${permalink}`)).data as Json;
  await callForm(page, "POST", `/api/dashboards/${dashboard.id}`, {
    widgets: JSON.stringify(widgets.map((spec, order) => demoWidget(sourceId, spec, order))),
    styles: JSON.stringify({ insightsSummary: true }),
    range_type: "custom",
    start: "2026-10-19",
    end: "2026-10-31",
    ...form,
  });
  return { path, permalink, id: dashboard.id as string };
}
