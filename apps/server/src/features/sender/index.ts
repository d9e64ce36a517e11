import type { Feature } from "../registry";
import { senderRoutes } from "./routes";
import { senderService } from "./service";

/** White-label sender address, its DNS records and DKIM key (docs/product.md §3). */
export const senderFeature: Feature = {
  name: "sender",
  services: (ctx, services) => ({ sender: senderService(ctx, () => services.get("companies")) }),
  routes: (app, _ctx, services) => senderRoutes(app, services.get("sender")),
};
