import { API } from "@app/core";
import { type App, actorOf, requireAuth } from "../../infra/http";
import type { ReportsService } from "./service";

/** Automatic reports API of docs/product.md §7. Thin: the contract validates, the service decides. */
export function reportRoutes(app: App, reports: ReportsService) {
  const tags = ["automatic reports"];

  app.get(
    "/api/automatic-reports",
    {
      schema: {
        tags,
        summary: "Every automatic report of the company",
        response: { 200: API.automaticReportsList.output },
      },
    },
    async (request) => ({ data: await reports.list(actorOf(request)) }),
  );

  app.post(
    "/api/automatic-reports",
    {
      schema: {
        tags,
        summary: "Schedule an automatic report of a dashboard",
        body: API.automaticReportCreate.body,
        response: { 200: API.automaticReportCreate.output },
      },
    },
    async (request) => {
      const timezone = requireAuth(request).user.timezone;
      return { data: await reports.create(actorOf(request), request.body, timezone) };
    },
  );

  app.put(
    "/api/automatic-reports/:id",
    {
      schema: {
        tags,
        summary: "Change an automatic report (the whole payload)",
        params: API.automaticReportUpdate.params,
        body: API.automaticReportUpdate.body,
        response: { 200: API.automaticReportUpdate.output },
      },
    },
    async (request) => ({ data: await reports.update(actorOf(request), request.params.id, request.body) }),
  );

  app.delete(
    "/api/automatic-reports/:id",
    { schema: { tags, summary: "Delete an automatic report", params: API.automaticReportDelete.params } },
    async (request, reply) => {
      await reports.remove(actorOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    "/api/automatic-reports/:id/send",
    {
      schema: {
        tags,
        summary: "Send an automatic report now (its usual period, as if due now)",
        params: API.automaticReportSend.params,
        body: API.automaticReportSend.body,
        response: { 200: API.automaticReportSend.output },
      },
    },
    async (request) => ({ data: await reports.sendNow(actorOf(request), request.params.id) }),
  );
}
