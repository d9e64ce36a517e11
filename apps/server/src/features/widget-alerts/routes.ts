import { API } from "@app/core";
import { type App, actorOf } from "../../infra/http";
import type { WidgetAlertsService } from "./service";

/** Alerts on a widget's metric (docs/decisions.md, "Alerts on any widget metric"). Thin: the contract validates, the service decides. */
export function widgetAlertRoutes(app: App, alerts: WidgetAlertsService) {
  const tags = ["widget alerts"];

  app.get(
    "/api/dashboards/:id/widgets/:widgetId/alerts",
    {
      schema: {
        tags,
        summary: "The alert rules of one widget of a dashboard",
        params: API.widgetAlertsList.params,
        response: { 200: API.widgetAlertsList.output },
      },
    },
    async (request) => ({
      data: await alerts.list(actorOf(request), request.params.id, request.params.widgetId),
    }),
  );

  app.get(
    "/api/dashboards/:id/widget-alerts/open",
    {
      schema: {
        tags,
        summary:
          "The dashboard's firing widget alerts (open, not paused, not snoozed): one request for every card's badge",
        params: API.widgetAlertsOpen.params,
        response: { 200: API.widgetAlertsOpen.output },
      },
    },
    async (request) => ({ data: await alerts.open(actorOf(request), request.params.id) }),
  );

  app.post(
    "/api/dashboards/:id/widgets/:widgetId/alerts",
    {
      schema: {
        tags,
        summary: "Alert me when one of the widget's metrics crosses a value, changes or leaves its usual range",
        params: API.widgetAlertCreate.params,
        body: API.widgetAlertCreate.body,
        response: { 200: API.widgetAlertCreate.output },
      },
    },
    async (request) => ({
      data: await alerts.create(actorOf(request), request.params.id, request.params.widgetId, request.body),
    }),
  );

  app.put(
    "/api/widget-alerts/:id",
    {
      schema: {
        tags,
        summary: "Change a widget alert (the whole rule)",
        params: API.widgetAlertUpdate.params,
        body: API.widgetAlertUpdate.body,
        response: { 200: API.widgetAlertUpdate.output },
      },
    },
    async (request) => ({ data: await alerts.update(actorOf(request), request.params.id, request.body) }),
  );

  app.delete(
    "/api/widget-alerts/:id",
    { schema: { tags, summary: "Delete a widget alert", params: API.widgetAlertDelete.params } },
    async (request, reply) => {
      await alerts.remove(actorOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    "/api/widget-alerts/:id/snooze",
    {
      schema: {
        tags,
        summary: "Snooze a widget alert for a week: it is still evaluated, but mails nobody",
        params: API.widgetAlertSnooze.params,
        body: API.widgetAlertSnooze.body,
        response: { 200: API.widgetAlertSnooze.output },
      },
    },
    async (request) => ({ data: await alerts.snooze(actorOf(request), request.params.id) }),
  );

  app.delete(
    "/api/widget-alerts/:id/snooze",
    {
      schema: {
        tags,
        summary: "End a widget alert's snooze now",
        params: API.widgetAlertUnsnooze.params,
        response: { 200: API.widgetAlertUnsnooze.output },
      },
    },
    async (request) => ({ data: await alerts.unsnooze(actorOf(request), request.params.id) }),
  );
}
