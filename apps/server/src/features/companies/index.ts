import type { Feature } from "../registry";
import { companyRoutes } from "./routes";
import { companiesService } from "./service";

export const companiesFeature: Feature = {
  name: "companies",
  services: (ctx, services) => ({
    companies: companiesService(
      ctx,
      ctx.storage,
      // Dashboards count against the allowance: asked of the dashboards service when a company is read.
      [
        async (companyId) => ({ dashboardsCount: await services.get("dashboards").countActive(companyId) }),
        // Mission Control groups (docs/product.md §3 campaignsCount; groups are not limited by the plan).
        async (companyId) => ({ campaignsCount: await services.get("campaigns").count(companyId) }),
        // The white-label sender's address, records and state (features/sender).
        async (companyId) => ({ sender: await services.get("sender").facts(companyId) }),
        // The applied coupons (features/coupons); their bonus dashboards are already in the row.
        async (companyId) => ({ coupons: await services.get("coupons").appliedOf(companyId) }),
      ],
      () => services.get("sessions").forgetAll(),
      // Canceling or deleting stops the card provider's subscription too (features/billing).
      () => services.get("billing"),
    ),
  }),
  routes: (app, _ctx, services) => companyRoutes(app, services.get("companies")),
};
