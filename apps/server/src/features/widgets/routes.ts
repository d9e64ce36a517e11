import { ZErrorBody, ZWidgetDataRequest, ZWidgetDataResponse } from "@app/core";
import { type App, actorOf, parseInput, readBody } from "../../infra/http";
import { answeringSourceFailure } from "../sources/routes";
import type { WidgetsService } from "./service";

/** The one widget-data endpoint: a widget's instances over a range and its comparison range. */
export function widgetRoutes(app: App, widgets: WidgetsService) {
  app.post(
    "/api/widgets/data",
    {
      schema: {
        tags: ["widgets"],
        summary: "Data of one widget: merged table for the range and, with comparison on, the compare range",
        response: { 200: ZWidgetDataResponse, 502: ZErrorBody },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const input = parseInput(ZWidgetDataRequest, await readBody(request));
      return answeringSourceFailure(reply, async () => ({ data: await widgets.data(actor.companyId, input) }));
    },
  );
}
