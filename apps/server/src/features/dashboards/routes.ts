import { API, HEADERS, ZDashboardSave } from "@app/core";
import type { FastifyReply } from "fastify";
import { type App, actorOf, parseInput, readForm } from "../../infra/http";
import type { WidgetsService } from "../widgets/service";
import type { DashboardsService } from "./service";

/** Dashboards API of docs/product.md §7. Thin: parse, call the service, shape the answer. */
export function dashboardRoutes(
  app: App,
  dashboards: DashboardsService,
  widgets: WidgetsService,
  passwordRateLimit: { max: number; timeWindow: number },
) {
  const tags = ["dashboards"];
  memberRoutes(app, dashboards, tags);
  viewerRoutes(app, dashboards, widgets, passwordRateLimit, tags);
  editingRoutes(app, dashboards, tags);
}

/** A member's dashboards: list, create, clone, archive and restore, delete. */
function memberRoutes(app: App, dashboards: DashboardsService, tags: string[]) {
  app.get(
    "/api/dashboards",
    { schema: { tags, querystring: API.dashboardsList.query, response: { 200: API.dashboardsList.output } } },
    async (request) => dashboards.list(actorOf(request), request.query),
  );

  app.post(
    "/api/dashboards",
    { schema: { tags, body: API.dashboardCreate.body, response: { 200: API.dashboardCreate.output } } },
    async (request) => {
      const permalink = await dashboards.create(actorOf(request), request.body);
      return { data: { permalink } };
    },
  );

  app.post(
    "/api/dashboards/:id/clone",
    {
      schema: {
        tags,
        params: API.dashboardClone.params,
        body: API.dashboardClone.body,
        response: { 200: API.dashboardClone.output },
      },
    },
    async (request) => ({
      data: { permalink: await dashboards.clone(actorOf(request), request.params.id) },
    }),
  );

  app.put(
    "/api/dashboards/:id/restore",
    { schema: { tags, params: API.dashboardRestore.params, body: API.dashboardRestore.body } },
    async (request, reply) => {
      await dashboards.setActive(actorOf(request), request.params.id, true);
      return reply.code(204).send();
    },
  );

  app.delete(
    "/api/dashboards/:id/archive",
    { schema: { tags, params: API.dashboardArchive.params } },
    async (request, reply) => {
      await dashboards.setActive(actorOf(request), request.params.id, false);
      return reply.code(204).send();
    },
  );

  app.delete(
    "/api/dashboards/:id",
    { schema: { tags, params: API.dashboardDelete.params } },
    async (request, reply) => {
      await dashboards.remove(actorOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
}

/** What a viewer opens by permalink (members and public viewers alike): the dashboard and its widgets' data. */
function viewerRoutes(
  app: App,
  dashboards: DashboardsService,
  widgets: WidgetsService,
  passwordRateLimit: { max: number; timeWindow: number },
  tags: string[],
) {
  // Public: anyone with the permalink may view; the service decides member vs public viewer.
  app.get(
    "/api/dashboards/:permalink",
    {
      config: { public: true, rateLimit: passwordRateLimit },
      schema: {
        tags,
        params: API.dashboardShow.params,
        querystring: API.dashboardShow.query,
        response: { 200: API.dashboardShow.output },
      },
    },
    async (request, reply) => {
      const viewer = request.auth ? actorOf(request) : null;
      const attempt = request.headers[HEADERS.authorization];
      const { dashboard, isPublic } = await dashboards.show(
        viewer,
        request.params.permalink,
        request.query.timezone ?? request.auth?.user.timezone ?? "UTC",
        typeof attempt === "string" && attempt !== "" ? attempt : null,
        request.ip,
        embedTokenOf(request.headers),
      );
      if (isPublic) reply.header(HEADERS.public, "1");
      return { data: dashboard };
    },
  );

  // Public: a saved widget's data for anyone who may view the dashboard (its instances come from the save).
  app.post(
    "/api/dashboards/:permalink/widgets/:widgetId/data",
    {
      config: { public: true },
      schema: {
        tags,
        params: API.dashboardWidgetData.params,
        body: API.dashboardWidgetData.body,
        response: { 200: API.dashboardWidgetData.output },
      },
    },
    async (request, reply) => {
      const range = request.body;
      const attempt = request.headers[HEADERS.authorization];
      const { companyId, instances, goals, language } = await dashboards.widgetForViewer(
        request.auth ? actorOf(request) : null,
        request.params.permalink,
        request.params.widgetId,
        typeof attempt === "string" && attempt !== "" ? attempt : null,
        request.ip,
        embedTokenOf(request.headers),
      );
      // Ready JSON bytes, already checked against the schema above (see widgets.dataAnswer); Fastify sends
      // a Buffer as-is, the untyped reply only drops the response typing. Its labels are in the
      // dashboard's language: this is the client's view (public, embedded, print and its PDF).
      const raw: FastifyReply = reply;
      // The saved widget's goals are answered to every viewer who may see it (public, embed, print).
      const query = { ...range, instances, ...(goals.length > 0 && { goals }) };
      const answer = await widgets.clientAnswer(companyId, query, language);
      return raw.type("application/json; charset=utf-8").send(answer.json);
    },
  );
}

/** The editor's and the owner's actions on one dashboard: lock, permalink, password, embed links, save. */
function editingRoutes(app: App, dashboards: DashboardsService, tags: string[]) {
  app.put(
    "/api/dashboards/:id",
    {
      schema: {
        tags,
        params: API.dashboardUpdate.params,
        body: API.dashboardUpdate.body,
        response: { 200: API.dashboardUpdate.output },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const input = request.body;
      if ("type" in input) return { data: { locked: await dashboards.lock(actor, request.params.id, input.type) } };
      if (input.category === "refresh_permalink")
        return { data: { permalink: await dashboards.refreshPermalink(actor, request.params.id) } };
      const passwordProtected = await dashboards.setPassword(actor, request.params.id, input.password || null);
      return { data: { passwordProtected } };
    },
  );

  app.post(
    "/api/dashboards/:id/embed",
    {
      schema: {
        tags,
        params: API.dashboardEmbedCreate.params,
        body: API.dashboardEmbedCreate.body,
        response: { 200: API.dashboardEmbedCreate.output },
      },
    },
    async (request) => ({
      data: await dashboards.createEmbedLink(actorOf(request), request.params.id, request.body.days),
    }),
  );

  app.delete(
    "/api/dashboards/:id/embed",
    { schema: { tags, params: API.dashboardEmbedRevoke.params } },
    async (request, reply) => {
      await dashboards.revokeEmbedLinks(actorOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    "/api/dashboards/:id",
    {
      schema: {
        tags,
        params: API.dashboardSave.params,
        consumes: ["multipart/form-data"],
        body: API.dashboardSave.body,
        response: { 200: API.dashboardSave.output },
      },
    },
    async (request) => {
      const form = await readForm(request);
      const input = parseInput(ZDashboardSave, form.fields);
      const files = Object.fromEntries(Object.entries(form.files).map(([name, file]) => [name, file.data]));
      const { styles, notices } = await dashboards.save(actorOf(request), request.params.id, input, files);
      return { data: { styles, ...(notices.length > 0 && { notices }) } };
    },
  );
}

/** The embed token an embedded view sends; an empty header counts as a (refused) token, not as none. */
function embedTokenOf(headers: Record<string, string | string[] | undefined>): string | null {
  const value = headers[HEADERS.embedToken];
  return typeof value === "string" ? value : null;
}
