import { API, ZErrorBody } from "@app/core";
import type { FastifyReply } from "fastify";
import { JsonText } from "../../infra/body-parsers";
import { type App, actorOf, readBody } from "../../infra/http";
import type { WidgetsService } from "./service";

/** The one widget-data endpoint: a widget's instances over a range and its comparison range. */
export function widgetRoutes(app: App, widgets: WidgetsService) {
  app.post(
    "/api/widgets/data",
    {
      // The body reaches the handler as text: a cached answer is found by its exact text, unparsed.
      config: { jsonText: true },
      schema: {
        tags: ["widgets"],
        summary: "Data of one widget: merged table for the range and, with comparison on, the compare range",
        consumes: ["application/json"],
        body: API.widgetData.body,
        response: { 200: API.widgetData.output, 502: ZErrorBody },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const body = request.body instanceof JsonText ? request.body : await readBody(request);
      // Sent as ready JSON bytes: the answer cache holds them serialised, already checked against the
      // schema above. Fastify sends a Buffer as-is; the untyped reply only drops the response typing.
      const raw: FastifyReply = reply;
      const answer = await widgets.dataAnswer(actor.companyId, body);
      return raw.type("application/json; charset=utf-8").send(answer.json);
    },
  );
}
