import type { Feature } from "../registry";
import { withAuditRequest } from "./request-context";
import { auditRoutes } from "./routes";
import { auditService } from "./service";

/** The company audit log (docs/product.md §3 "Audit events"): its page, CSV export and retention job. */
export const auditFeature: Feature = {
  name: "audit",
  services: (ctx, services) => ({ audit: auditService(ctx, () => services.get("companies")) }),
  routes(app, _ctx, services) {
    // Every request's member and address, for the rows its changes record (./request-context.ts).
    app.addHook("preHandler", (request, _reply, done) => {
      const user = request.auth?.user;
      const agent = request.headers["user-agent"];
      withAuditRequest(
        {
          actor: user ? { id: user.id, name: user.name, email: user.email } : null,
          ip: request.ip ?? null,
          userAgent: typeof agent === "string" ? agent : null,
        },
        done,
      );
    });
    auditRoutes(app, services.get("audit"));
  },
  jobs: (_ctx, services) => [services.get("audit").retentionJob()],
};
