import { ZErrorBody, ZWidgetDataResponse } from "@app/core";
import type { FastifyReply } from "fastify";
import { type App, actorOf, readBody } from "../../infra/http";
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
      const body = await readBody(request);
      // Sent as ready JSON text: the answer cache holds it serialised (the schema above documents it).
      // Fastify sends text as-is; the untyped reply only drops the response typing for this ready JSON.
      const raw: FastifyReply = reply;
      return answeringSourceFailure(reply, async () =>
        raw.type("application/json; charset=utf-8").send(await widgets.dataJson(actor.companyId, body)),
      );
    },
  );
}
