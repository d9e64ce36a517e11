import { API } from "@app/core";
import { type App, adminOnly, requireAdmin } from "../../infra/http";
import type { InvoicesService } from "./invoices";

/** The company's invoices (docs/decisions.md, "Invoices"), admins only: the list and each invoice's PDF. Thin. */
export function invoicesRoutes(app: App, invoices: InvoicesService) {
  const tags = ["billing"];
  app.get(
    "/api/orders",
    {
      preValidation: adminOnly,
      schema: {
        tags,
        summary: "The company's invoices, newest first",
        response: { 200: API.ordersList.output },
      },
    },
    async (request) => ({ data: await invoices.listOrders(requireAdmin(request).companyId) }),
  );
  app.get<{ Params: { id: string } }>(
    "/api/orders/:id/pdf",
    {
      preValidation: adminOnly,
      schema: { tags, summary: "One invoice as a PDF", params: API.orderPdf.params },
    },
    async (request, reply) => {
      const { filename, bytes } = await invoices.invoicePdf(requireAdmin(request).companyId, request.params.id);
      return reply
        .type("application/pdf")
        .header("cache-control", "no-store")
        .header("content-disposition", `attachment; filename="${filename}"`)
        .send(bytes);
    },
  );
}
