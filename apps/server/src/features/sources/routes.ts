import {
  type TSourceOptionQuery,
  ZErrorBody,
  ZOptionListResponse,
  ZSourceListResponse,
  ZSourceOptionQuery,
  ZSourceResponse,
} from "@app/core";
import type { FastifyReply } from "fastify";
import { z } from "zod";
import { type App, actorOf, readForm, zPathParam } from "../../infra/http";
import { SourceFailure, type SourcesService } from "./service";

const ZIdParams = z.object({ id: zPathParam.pipe(z.string().max(64)) });
const ZOptionParams = ZIdParams.extend({ option: zPathParam.pipe(z.string().max(64)) });

/** Body of a source failure (502): the widget or form shows 'Data Error' and banner 125 follows. */
export const SOURCE_ERROR_BODY = { code: "source_error", message: "Data Error" } as const;

/** Answers a source failure as 502 {code: 'source_error'} rather than a 500; other errors go to the global handler. */
export async function answeringSourceFailure<T>(reply: FastifyReply, run: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SourceFailure) return reply.code(502).send(SOURCE_ERROR_BODY);
    throw error;
  }
}

/** Sources API of docs/product.md §7; every route is scoped to the session's company. */
export function sourceRoutes(app: App, sources: SourcesService) {
  const tags = ["sources"];
  app.get("/api/sources", { schema: { tags, response: { 200: ZSourceListResponse } } }, async (request) => {
    return { data: await sources.list(actorOf(request)) };
  });

  app.post(
    "/api/sources",
    {
      schema: {
        tags,
        summary: "Connect a source: JSON {name, account?, token?, site?}, or multipart name=csv with a `file` part",
        consumes: ["application/json", "multipart/form-data"],
        response: { 200: ZSourceResponse },
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
        params: ZIdParams,
        response: { 200: ZSourceResponse },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return { data: await sources.update(actor, request.params.id, await readForm(request)) };
    },
  );

  app.delete("/api/sources/:id", { schema: { tags, params: ZIdParams } }, async (request, reply) => {
    await sources.remove(actorOf(request), request.params.id);
    return reply.code(204).send();
  });

  const optionResponse = { 200: ZOptionListResponse, 502: ZErrorBody };
  app.get(
    "/api/sources/:id/properties",
    { schema: { tags, params: ZIdParams, response: optionResponse } },
    async (request, reply) => {
      const actor = actorOf(request);
      return answeringSourceFailure(reply, async () => ({
        data: await sources.options(actor, request.params.id, "properties", {}),
      }));
    },
  );

  app.get(
    "/api/sources/:id/:option",
    {
      schema: {
        tags,
        summary:
          "A remote option list (metrics, dimensions, sheets, columns …); the type form's values travel as the query",
        params: ZOptionParams,
        querystring: ZSourceOptionQuery,
        response: optionResponse,
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { id, option } = request.params;
      const form = request.query as TSourceOptionQuery;
      return answeringSourceFailure(reply, async () => ({ data: await sources.options(actor, id, option, form) }));
    },
  );
}
