import { API } from "@app/core";
import { CONNECTORS, catalogue, connectorByKey, widgetType } from "../../connectors";
import type { ProvidersConfig } from "../../infra/config";
import { AppError } from "../../infra/errors";
import { type App, actorOf } from "../../infra/http";
import { TEMPLATES } from "./templates";

/** Configuration the forms are built from (docs/product.md §7): catalogue, widget type inputs, templates. Same for every company. */
export function configRoutes(app: App, providers: ProvidersConfig) {
  const tags = ["configs"];
  app.get(
    "/api/configs/connectors",
    { schema: { tags, response: { 200: API.connectors.output } } },
    async (request) => {
      actorOf(request);
      return { data: catalogue(providers) };
    },
  );

  app.get<{ Params: { key: string } }>(
    "/api/configs/connectors/:key/logo.svg",
    { schema: { tags, summary: "A connector's logo (SVG)", params: API.connectorLogo.params } },
    async (request, reply) => {
      actorOf(request);
      const connector = connectorByKey(request.params.key);
      if (!connector) throw AppError.notFound("Unknown connector.");
      // The same for every company; a release may redraw it, so browsers keep it for an hour only.
      return reply.type("image/svg+xml").header("cache-control", "private, max-age=3600").send(connector.logo);
    },
  );

  app.get(
    "/api/configs/widgets/:type",
    {
      schema: {
        tags,
        summary: "Widget types of a connector key (source type), or the one widget type of that key",
        params: API.widgetTypes.params,
        response: { 200: API.widgetTypes.output },
      },
    },
    async (request) => {
      actorOf(request);
      const { type } = request.params;
      const connector = connectorByKey(type);
      if (connector) return { data: [...connector.widgetTypes] };
      const single = widgetType(type);
      if (!single) throw AppError.notFound("Unknown widget type.");
      return { data: [single.config] };
    },
  );

  app.get("/api/configs/templates", { schema: { tags, response: { 200: API.templates.output } } }, async (request) => {
    actorOf(request);
    // Templates only reference connectors that can be connected, so a template never yields 'Data Error'.
    const usable = Object.values(TEMPLATES).filter((template) =>
      CONNECTORS.some((c) => c.key === template.connector && c.available),
    );
    return { data: Object.fromEntries(usable.map((template) => [template.key, template])) };
  });
}
