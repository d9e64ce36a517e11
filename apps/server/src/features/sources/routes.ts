import { API, ZErrorBody } from "@app/core";
import { type App, actorOf, readForm } from "../../infra/http";
import type { SourcesService } from "./service";

/** Sources API of docs/product.md §7; every route is scoped to the session's company. */
export function sourceRoutes(app: App, sources: SourcesService) {
  const tags = ["sources"];
  app.get("/api/sources", { schema: { tags, response: { 200: API.sourcesList.output } } }, async (request) => {
    return { data: await sources.list(actorOf(request)) };
  });

  app.post(
    "/api/sources",
    {
      schema: {
        tags,
        summary: "Connect a source: JSON {name, account?, token?, site?}, or multipart name=csv with a `file` part",
        consumes: ["application/json", "multipart/form-data"],
        body: API.sourceCreate.body,
        response: { 200: API.sourceCreate.output },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return { data: await sources.create(actor, await readForm(request)) };
    },
  );

  app.put(
    "/api/sources/:id",
    {
      schema: {
        tags,
        summary: "Re-authorise a source with new credentials; for CSV, add a file (`file` part)",
        consumes: ["application/json", "multipart/form-data"],
        params: API.sourceUpdate.params,
        body: API.sourceUpdate.body,
        response: { 200: API.sourceUpdate.output },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return { data: await sources.update(actor, request.params.id, await readForm(request)) };
    },
  );

  app.delete("/api/sources/:id", { schema: { tags, params: API.sourceDelete.params } }, async (request, reply) => {
    await sources.remove(actorOf(request), request.params.id);
    return reply.code(204).send();
  });

  const optionResponse = { 200: API.sourceOptions.output, 502: ZErrorBody };
  app.get(
    "/api/sources/:id/properties",
    {
      schema: {
        tags,
        params: API.sourceProperties.params,
        querystring: API.sourceProperties.query,
        response: optionResponse,
      },
    },
    async (request) => {
      // A failing source answers 502 source_error (the error table): the form shows 'Data Error'.
      // The form's values come along: a searchable picker (Google Sheets) reads searchTerm and include.
      return { data: await sources.options(actorOf(request), request.params.id, "properties", request.query) };
    },
  );

  app.get(
    "/api/sources/:id/:option",
    {
      schema: {
        tags,
        summary:
          "A remote option list (metrics, dimensions, sheets, columns …); the type form's values travel as the query",
        params: API.sourceOptions.params,
        querystring: API.sourceOptions.query,
        response: optionResponse,
      },
    },
    async (request) => {
      const { id, option } = request.params;
      return { data: await sources.options(actorOf(request), id, option, request.query) };
    },
  );
}
