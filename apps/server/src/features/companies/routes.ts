import { API, ZCompanyUpdate } from "@app/core";
import type { FastifyReply } from "fastify";
import { AppError } from "../../infra/errors";

import { type App, actorOf, adminOnly, parseInput, readForm, requireAdmin } from "../../infra/http";
import type { CompaniesService } from "./service";

/** Company API of docs/product.md §7: read for every member, change for admins (docs/product.md §6). */
export function companyRoutes(app: App, companies: CompaniesService) {
  const tags = ["company"];
  app.get("/api/company", { schema: { tags, response: { 200: API.companyShow.output } } }, async (request) => {
    return { data: await companies.get(actorOf(request).companyId) };
  });

  app.post(
    "/api/company",
    {
      schema: {
        tags,
        summary: "Update company settings (multipart form data; file field `logo`)",
        consumes: ["multipart/form-data", "application/json"],
        body: API.companyUpdate.body,
        response: { 200: API.companyUpdate.output },
      },
    },
    async (request) => {
      const actor = requireAdmin(request);
      const form = await readForm(request);
      const input = parseInput(ZCompanyUpdate, form.fields);
      return { data: await companies.update(actor.companyId, input, form.files.logo?.data ?? null) };
    },
  );

  // The custom domain's CNAME, looked up now (docs/product.md §3 domainCname).
  app.post(
    "/api/company/domain/verify",
    {
      preValidation: adminOnly,
      schema: { tags, body: API.companyDomainVerify.body, response: { 200: API.companyDomainVerify.output } },
    },
    async (request) => ({ data: await companies.verifyDomain(requireAdmin(request).companyId) }),
  );
  // For the reverse proxy's on-demand TLS "ask" (docs/operations.md "Custom domains"): a certificate is
  // only requested for a verified company domain, so nobody can make the proxy ask for any host at all.
  app.get(
    "/api/domains/allowed",
    {
      config: { public: true },
      schema: { tags, querystring: API.domainAllowed.query, response: { 200: API.domainAllowed.output } },
    },
    async (request) => {
      const domain = request.query.domain.trim().toLowerCase().replace(/\.$/, "");
      if (!(await companies.forHost(domain))) throw AppError.notFound("Not a verified custom domain.");
      return { data: { domain } };
    },
  );
  app.delete(
    "/api/company",
    {
      preValidation: adminOnly,
      schema: {
        tags,
        summary: "Delete the company, or cancel its subscription",
        body: API.companyDelete.body,
        response: { 200: API.companyDelete.output },
      },
    },
    async (request, reply) => {
      const actor = requireAdmin(request);
      const company = await companies.deleteOrCancel(actor.companyId, request.body);
      if (company) return { data: company };
      // Deleted: nothing left to answer with (the 200 schema only types the cancellation's answer).
      const raw: FastifyReply = reply;
      return raw.code(204).send();
    },
  );
}
