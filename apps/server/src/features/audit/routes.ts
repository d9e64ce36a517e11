import { API, type TAuditLogQuery } from "@app/core";
import { type App, adminOnly, requireAdmin } from "../../infra/http";
import type { AuditService } from "./service";

/** The company audit log (admins only, docs/product.md §3 "Audit events"): the page's list and its CSV. Thin. */
export function auditRoutes(app: App, audit: AuditService) {
  const tags = ["company"];
  app.get(
    "/api/company/audit-log",
    {
      preValidation: adminOnly,
      schema: {
        tags,
        summary: "The company audit log, filtered, newest first",
        querystring: API.auditLog.query,
        response: { 200: API.auditLog.output },
      },
    },
    async (request) => audit.list(requireAdmin(request), request.query as TAuditLogQuery),
  );
  app.get(
    "/api/company/audit-log/export",
    {
      preValidation: adminOnly,
      schema: { tags, summary: "The filtered audit log as CSV", querystring: API.auditLogCsv.query },
    },
    async (request, reply) => {
      const csv = await audit.csv(requireAdmin(request), request.query as TAuditLogQuery);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type("text/csv; charset=utf-8")
        .header("cache-control", "no-store")
        .header("content-disposition", `attachment; filename="audit-log-${day}.csv"`)
        .send(csv);
    },
  );
}
