import { API, ROLE_ADMIN } from "@app/core";
import { JsonText } from "../../infra/body-parsers";
import { AppError } from "../../infra/errors";
import { type App, adminOnly, requireAdmin } from "../../infra/http";
import type { BillingService } from "./service";

/**
 * Billing routes (docs/product.md §4 and §7): the subscription of a company (admins only), the embedded
 * checkout, and Stripe's webhook. Thin: prices, Stripe and state changes live in the service.
 */
export function billingRoutes(app: App, billing: BillingService, rateLimit: { max: number; timeWindow: number }) {
  const tags = ["billing"];
  app.post(
    "/api/company/subscription",
    {
      preValidation: adminOnly,
      schema: {
        tags,
        summary: "Start a subscription: the server's price and the embedded checkout to pay it",
        body: API.companySubscriptionCreate.body,
        response: { 200: API.companySubscriptionCreate.output },
      },
    },
    async (request) => ({ data: await billing.create(requireAdmin(request).companyId, request.body) }),
  );
  app.put(
    "/api/company/subscription",
    {
      preValidation: adminOnly,
      schema: {
        tags,
        summary: "Change the subscription's dashboards or interval (prorated by Stripe)",
        body: API.companySubscriptionChange.body,
        response: { 200: API.companySubscriptionChange.output },
      },
    },
    async (request) => ({ data: await billing.change(requireAdmin(request).companyId, request.body) }),
  );
  app.post(
    "/api/company/subscription/confirm",
    {
      preValidation: adminOnly,
      schema: {
        tags,
        summary:
          "Whether the checkout the page paid is confirmed (Stripe's webhook, or the server's check with Stripe)",
        body: API.companySubscriptionConfirm.body,
        response: { 200: API.companySubscriptionConfirm.output },
      },
    },
    async (request) => ({
      data: await billing.confirmation.confirm(requireAdmin(request).companyId, request.body.order_ref),
    }),
  );
  app.post(
    "/api/company/payment-portal",
    {
      preValidation: adminOnly,
      schema: {
        tags,
        summary: "A Stripe billing portal address where the admin changes the card",
        body: API.companyPaymentPortal.body,
        response: { 200: API.companyPaymentPortal.output },
      },
    },
    async (request) => ({ data: await billing.paymentPortal(requireAdmin(request).companyId) }),
  );
  app.put(
    "/api/company/billing-details",
    {
      preValidation: adminOnly,
      schema: {
        tags,
        summary: "The company's billing details (what its invoices are made out to), told to Stripe's customer",
        body: API.companyBillingDetails.body,
        response: { 200: API.companyBillingDetails.output },
      },
    },
    async (request) => ({ data: await billing.details.save(requireAdmin(request).companyId, request.body) }),
  );
  // A registering visitor (no session) or a signed-in admin; rate-limited like the other public posts.
  app.post(
    "/api/payment/secure",
    {
      config: { public: true, rateLimit },
      schema: {
        tags,
        summary: "An embedded Checkout Session for a plan: {payload: client secret, key: publishable key}",
        body: API.paymentSecure.body,
        response: { 200: API.paymentSecure.output },
      },
    },
    async (request) => {
      const auth = request.auth;
      if (auth && auth.user.role !== ROLE_ADMIN) throw AppError.forbidden();
      return { data: await billing.secure(request.body, auth?.user.company_id ?? null) };
    },
  );
  // Stripe calls this: no session or page header, the signature over the exact bytes proves the sender.
  app.post(
    "/api/payment/webhook",
    {
      config: { public: true, jsonText: true, signedWebhook: true },
      schema: {
        tags,
        summary: "Stripe's webhook (Stripe-Signature header); replays answer 200 and change nothing",
        body: API.paymentWebhook.body,
        response: { 200: API.paymentWebhook.output },
      },
    },
    async (request) => {
      // The exact bytes Stripe signed (a JSON body arrives unparsed on this route); anything else is unsigned.
      const raw: unknown = request.body;
      const text = raw instanceof JsonText ? raw.text : "";
      const result = await billing.handleWebhook(text, request.headers["stripe-signature"]?.toString());
      return { received: true as const, duplicate: result.duplicate };
    },
  );
}
