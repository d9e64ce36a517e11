import { API, HEADERS } from "@app/core";
import { type App, actorOf } from "../../infra/http";
import type { InsightsService } from "./service";

/** Automatic insights of a dashboard (docs/decisions.md, "Insights wiring: API, settings, page, PDF and e-mail"), for anyone who may view it, like its widgets' data. */
export function insightsRoutes(app: App, insights: InsightsService) {
  app.post(
    "/api/dashboards/:permalink/insights",
    {
      config: { public: true },
      schema: {
        tags: ["dashboards"],
        summary: "Each widget's insights line and the dashboard's ranked summary over a range",
        params: API.dashboardInsights.params,
        body: API.dashboardInsights.body,
        response: { 200: API.dashboardInsights.output },
      },
    },
    async (request) => {
      const attempt = request.headers[HEADERS.authorization];
      const embedToken = request.headers[HEADERS.embedToken];
      const data = await insights.forViewer(
        request.auth ? actorOf(request) : null,
        request.params.permalink,
        request.body,
        typeof attempt === "string" && attempt !== "" ? attempt : null,
        request.ip,
        typeof embedToken === "string" ? embedToken : null,
      );
      return { data };
    },
  );
}
