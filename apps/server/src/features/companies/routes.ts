import { dataEnvelope, ZCompany, ZCompanyDelete, ZCompanyUpdate } from "@app/core";

import { type App, actorOf, parseInput, readBody, readForm, requireAdmin } from "../../infra/http";
import type { CompaniesService } from "./service";

/** Company API of docs/product.md §7: read for every member, change for admins (docs/product.md §6). */
export function companyRoutes(app: App, companies: CompaniesService) {
  const tags = ["company"];
  app.get("/api/company", { schema: { tags, response: { 200: dataEnvelope(ZCompany) } } }, async (request) => {
    return { data: await companies.get(actorOf(request).companyId) };
  });

  app.post(
    "/api/company",
    {
      schema: {
        tags,
        summary: "Update company settings (multipart form data; file field `logo`)",
        consumes: ["multipart/form-data", "application/json"],
      },
    },
    async (request) => {
      const actor = requireAdmin(request);
      const form = await readForm(request);
      const input = parseInput(ZCompanyUpdate, form.fields);
      return { data: await companies.update(actor.companyId, input, form.files.logo?.data ?? null) };
    },
  );

  app.delete(
    "/api/company",
    { schema: { tags, summary: "Delete the company, or cancel its subscription" } },
    async (request, reply) => {
      const actor = requireAdmin(request);
      const input = parseInput(ZCompanyDelete, await readBody(request));
      const company = await companies.deleteOrCancel(actor.companyId, input);
      return company ? { data: company } : reply.code(204).send();
    },
  );
}
