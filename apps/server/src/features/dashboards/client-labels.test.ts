import type { TLanguage, TWidgetDataResponse } from "@app/core";
import { buildInstance, buildWidget } from "@app/core/widgets/test-fixtures";
import { expect, it } from "vitest";
import { buildDashboard, buildOwner, buildSource } from "../../../test/factories";
import { describeEachDb } from "../../../test/harness";

const RANGE = { startDate: "2026-10-01", endDate: "2026-10-31", timezone: "UTC" };

describeEachDb("metric and dimension labels in the dashboard's language", (env) => {
  async function germanDashboard(language: TLanguage = "de") {
    const owner = await buildOwner(env());
    const source = await buildSource(env(), { company: owner.company });
    const instance = buildInstance({
      type: "demo.analytics",
      config: "custom",
      sourceId: source.id,
      inputs: {
        property: "harbor-outfitters",
        dimension: "channel",
        metrics: ["sessions", "bounce_rate"],
        // A name the owner typed that is also a known label: it stays as typed.
        calculatedMetrics: [{ id: "calc1", name: "Conversions", type: "numeric", expression: "{sessions} * 2" }],
      },
    });
    const widget = buildWidget({ id: "channels", title: "Sessions by channel", instances: [instance] });
    const dashboard = await buildDashboard(env(), {
      company: owner.company,
      user: owner.user,
      widgets: [widget],
      save: { language },
    });
    return { owner, dashboard, instance };
  }

  it("the client's widget data says the connector's labels in German; the owner's editor data stays English", async () => {
    const { owner, dashboard, instance } = await germanDashboard();
    const guest = env().client();
    const asClient = await guest.api("POST", `/api/dashboards/${dashboard.permalink}/widgets/channels/data`, RANGE);
    expect(asClient.statusCode, asClient.body).toBe(200);
    const client = (asClient.json() as TWidgetDataResponse).data;
    expect(client.current.dimension?.label).toBe("Kanal");
    expect(client.current.metrics.map((metric) => metric.label)).toEqual(["Sitzungen", "Absprungrate", "Conversions"]);
    expect(client.previous?.metrics.map((metric) => metric.label)).toEqual([
      "Sitzungen",
      "Absprungrate",
      "Conversions",
    ]);
    // Dimension values are the data's, not ours to translate.
    expect(client.current.rows.map((row) => row.dimension)).toContain("Organic Search");

    // Asked again (the kept answer): the same German answer.
    const again = await guest.api("POST", `/api/dashboards/${dashboard.permalink}/widgets/channels/data`, RANGE);
    expect((again.json() as TWidgetDataResponse).data).toEqual(client);

    const asOwner = await owner.client.api("POST", "/api/widgets/data", { ...RANGE, instances: [instance] });
    expect(asOwner.statusCode, asOwner.body).toBe(200);
    const editor = (asOwner.json() as TWidgetDataResponse).data;
    expect(editor.current.metrics.map((metric) => metric.label)).toEqual(["Sessions", "Bounce Rate", "Conversions"]);
    expect(editor.current.dimension?.label).toBe("Channel");
    // The same numbers either way.
    expect(editor.current.totals).toEqual(client.current.totals);
  });

  it("the pseudo-locale's client reads the labels accented and lengthened", async () => {
    const { dashboard } = await germanDashboard("en-XA");
    const asClient = await env()
      .client()
      .api("POST", `/api/dashboards/${dashboard.permalink}/widgets/channels/data`, RANGE);
    expect(asClient.statusCode, asClient.body).toBe(200);
    const client = (asClient.json() as TWidgetDataResponse).data;
    expect(client.current.dimension?.label).toBe("[Çĥáññéļ ~~~]");
    expect(client.current.metrics.map((metric) => metric.label)).toEqual([
      "[Šéššíóñš ~~~~]",
      expect.stringMatching(/^\[Ɓóúñçé/),
      "Conversions",
    ]);
  });
});
