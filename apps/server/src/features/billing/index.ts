import { z } from "zod";
import type { JobDefinition } from "../../infra/jobs";
import type { Feature } from "../registry";
import { billingDetailsService } from "./billing-details";
import { checkoutClaims } from "./claim";
import { checkoutConfirmation } from "./confirm";
import { subscriptionDiscounts } from "./discounts";
import { invoicesService } from "./invoices";
import { invoicesRoutes } from "./invoices-routes";
import { lifetimeCancellation } from "./lifetime";
import { checkoutRefunds } from "./refund";
import { billingRoutes } from "./routes";
import { type BillingService, billingService } from "./service";
import { stripeClient } from "./stripe-client";
import { webhookHandler } from "./webhooks";

/** How often the expiry job looks for trials and canceled periods that just ended. */
export const EXPIRY_EVERY_MS = 5 * 60_000;
export const EXPIRY_JOB = "billing.end-service";

export const billingFeature: Feature = {
  name: "billing",
  services: (ctx, services) => {
    const stripe = stripeClient(ctx.config.stripe);
    const companies = services.get("companies");
    const lifetime = lifetimeCancellation(ctx, stripe);
    const claims = checkoutClaims(ctx, companies, stripe, lifetime);
    const couponPrices = (companyId: string | null, codes: readonly string[]) =>
      services.get("coupons").forPrice(companyId, codes);
    const details = billingDetailsService(ctx, companies, stripe);
    const billing: BillingService = {
      ...billingService(ctx, companies, couponPrices, stripe, claims, details),
      ...webhookHandler(ctx, companies, stripe),
      claims,
      discounts: subscriptionDiscounts(ctx, companies, couponPrices, stripe),
      confirmation: checkoutConfirmation(ctx, companies, stripe),
      details,
      lifetime,
      refunds: checkoutRefunds(ctx, stripe),
    };
    return { billing };
  },
  routes: (app, ctx, services) => {
    billingRoutes(app, services.get("billing"), {
      max: ctx.config.rateLimit.authMax,
      timeWindow: ctx.config.rateLimit.windowMs,
    });
    invoicesRoutes(app, invoicesService(ctx, services.get("companies")));
  },
  jobs: (_ctx, services) => {
    // docs/product.md §4: a trial or a canceled period ending is pushed live at (about) that moment.
    const expiry: JobDefinition<Record<string, never>> = {
      name: EXPIRY_JOB,
      payload: z.object({}).strict() as unknown as z.ZodType<Record<string, never>>,
      schedule: { everyMs: EXPIRY_EVERY_MS },
      async handle() {
        await services.get("billing").endServiceWhereDue();
      },
    };
    const billing = services.get("billing");
    return [expiry, billing.lifetime.job, billing.refunds.job, billing.discounts.job];
  },
};
