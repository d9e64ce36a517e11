import {
  HEADERS,
  ZDashboardCreate,
  ZDashboardListQuery,
  ZDashboardListResponse,
  ZDashboardResponse,
  ZDashboardSave,
  ZDashboardSaveResponse,
  ZDashboardShowQuery,
  ZDashboardUpdate,
  ZDashboardUpdateResponse,
  ZDashboardWidgetDataRequest,
  ZPermalinkResponse,
  ZWidgetDataResponse,
} from "@app/core";
import type { FastifyReply } from "fastify";
import { z } from "zod";
import { type App, actorOf, parseInput, readBody, readForm, zPathParam } from "../../infra/http";
import { answeringSourceFailure } from "../sources/routes";
import type { WidgetsService } from "../widgets/service";
import { DashboardPasswordError, type DashboardsService } from "./service";

const ZId = z.object({ id: zPathParam });
const ZPermalink = z.object({ permalink: zPathParam });

/** Dashboards API of docs/product.md §7. Thin: parse, call the service, shape the answer. */
export function dashboardRoutes(
  app: App,
  dashboards: DashboardsService,
  widgets: WidgetsService,
  passwordRateLimit: { max: number; timeWindow: number },
) {
  const tags = ["dashboards"];

  app.get(
    "/api/dashboards",
    { schema: { tags, querystring: ZDashboardListQuery, response: { 200: ZDashboardListResponse } } },
    async (request) => dashboards.list(actorOf(request), request.query),
  );

  app.post("/api/dashboards", { schema: { tags, response: { 200: ZPermalinkResponse } } }, async (request) => {
    const permalink = await dashboards.create(actorOf(request), parseInput(ZDashboardCreate, await readBody(request)));
    return { data: { permalink } };
  });

  app.post(
    "/api/dashboards/:id/clone",
    { schema: { tags, params: ZId, response: { 200: ZPermalinkResponse } } },
    async (request) => ({
      data: { permalink: await dashboards.clone(actorOf(request), request.params.id) },
    }),
  );

  app.put("/api/dashboards/:id/restore", { schema: { tags, params: ZId } }, async (request, reply) => {
    await dashboards.setActive(actorOf(request), request.params.id, true);
    return reply.code(204).send();
  });

  app.delete("/api/dashboards/:id/archive", { schema: { tags, params: ZId } }, async (request, reply) => {
    await dashboards.setActive(actorOf(request), request.params.id, false);
    return reply.code(204).send();
  });

  app.delete("/api/dashboards/:id", { schema: { tags, params: ZId } }, async (request, reply) => {
    await dashboards.remove(actorOf(request), request.params.id);
    return reply.code(204).send();
  });

  // Public: anyone with the permalink may view; the service decides member vs public viewer.
  app.get(
    "/api/dashboards/:permalink",
    {
      config: { public: true, rateLimit: passwordRateLimit },
      schema: { tags, params: ZPermalink, querystring: ZDashboardShowQuery, response: { 200: ZDashboardResponse } },
    },
    async (request, reply) => {
      const viewer = request.auth ? actorOf(request) : null;
      const attempt = request.headers[HEADERS.authorization];
      try {
        const { dashboard, isPublic } = await dashboards.show(
          viewer,
          request.params.permalink,
          request.query.timezone ?? request.auth?.user.timezone ?? "UTC",
          typeof attempt === "string" && attempt !== "" ? attempt : null,
          request.ip,
        );
        if (isPublic) reply.header(HEADERS.public, "1");
        return { data: dashboard };
      } catch (error) {
        // The usual 422 body plus the agency's site title, so the password prompt carries its white label.
        if (!(error instanceof DashboardPasswordError)) throw error;
        const raw: FastifyReply = reply;
        return raw.code(422).send({ message: error.message, errors: error.fields, siteTitle: error.siteTitle });
      }
    },
  );

  // Public: a saved widget's data for anyone who may view the dashboard (its instances come from the save).
  app.post(
    "/api/dashboards/:permalink/widgets/:widgetId/data",
    {
      config: { public: true },
      schema: {
        tags,
        params: z.object({ permalink: zPathParam, widgetId: zPathParam }),
        response: { 200: ZWidgetDataResponse },
      },
    },
    async (request, reply) => {
      const range = parseInput(ZDashboardWidgetDataRequest, await readBody(request));
      const attempt = request.headers[HEADERS.authorization];
      const { companyId, instances } = await dashboards.widgetForViewer(
        request.auth ? actorOf(request) : null,
        request.params.permalink,
        request.params.widgetId,
        typeof attempt === "string" && attempt !== "" ? attempt : null,
        request.ip,
      );
      // Ready JSON bytes, already checked against the schema above (see widgets.dataAnswer); Fastify sends
      // a Buffer as-is, the untyped reply only drops the response typing.
      const raw: FastifyReply = reply;
      return answeringSourceFailure(reply, async () => {
        const answer = await widgets.dataAnswer(companyId, { ...range, instances });
        return raw.type("application/json; charset=utf-8").send(answer.json);
      });
    },
  );

  app.put(
    "/api/dashboards/:id",
    { schema: { tags, params: ZId, response: { 200: ZDashboardUpdateResponse } } },
    async (request) => {
      const actor = actorOf(request);
      const input = parseInput(ZDashboardUpdate, await readBody(request));
      if ("type" in input) return { data: { locked: await dashboards.lock(actor, request.params.id, input.type) } };
      if (input.category === "refresh_permalink")
        return { data: { permalink: await dashboards.refreshPermalink(actor, request.params.id) } };
      const passwordProtected = await dashboards.setPassword(actor, request.params.id, input.password || null);
      return { data: { passwordProtected } };
    },
  );

  app.post(
    "/api/dashboards/:id",
    { schema: { tags, params: ZId, consumes: ["multipart/form-data"], response: { 200: ZDashboardSaveResponse } } },
    async (request) => {
      const form = await readForm(request);
      const input = parseInput(ZDashboardSave, form.fields);
      const files = Object.fromEntries(Object.entries(form.files).map(([name, file]) => [name, file.data]));
      return { data: { styles: await dashboards.save(actorOf(request), request.params.id, input, files) } };
    },
  );
}
