import { API } from "@app/core";
import { type App, adminOnly, requireAdmin } from "../../infra/http";
import type { SenderService } from "./service";

/** The company's sender address and its DNS verification (admin only, docs/product.md §6). */
export function senderRoutes(app: App, sender: SenderService) {
  const tags = ["company"];
  app.put(
    "/api/company/sender",
    {
      preValidation: adminOnly,
      schema: {
        tags,
        summary: "Set or remove the company's own sender address",
        body: API.companySenderUpdate.body,
        response: { 200: API.companySenderUpdate.output },
      },
    },
    async (request) => ({ data: await sender.set(requireAdmin(request), request.body) }),
  );
  app.post(
    "/api/company/sender/verify",
    {
      preValidation: adminOnly,
      schema: {
        tags,
        summary: "Look up the sender's DNS records (SPF, DKIM, return path)",
        body: API.companySenderVerify.body,
        response: { 200: API.companySenderVerify.output },
      },
    },
    async (request) => ({ data: await sender.verify(requireAdmin(request)) }),
  );
}
