import { API, HEADERS, type TPdfQuery } from "@app/core";
import { type App, actorOf } from "../../infra/http";
import type { ExportsService } from "./service";

/** Content-Disposition for a UTF-8 name: an ASCII fallback plus RFC 5987's filename*. */
function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** PDF export routes (docs/product.md §7): thin, the service decides. */
export function exportRoutes(app: App, exportsService: ExportsService) {
  const tags = ["dashboards"];
  for (const realtime of [false, true]) {
    const name = realtime ? "dashboardRealtimePdf" : "dashboardPdf";
    app.get<{ Params: { permalink: string }; Querystring: TPdfQuery }>(
      realtime ? "/api/dashboards/:permalink/realtime/pdf" : "/api/dashboards/:permalink/pdf",
      {
        config: { public: true },
        schema: {
          tags,
          summary: realtime ? "The realtime view as a PDF" : "The dashboard as a PDF",
          description:
            "202 with a check value while the PDF is being made, 304 while polling with that check, then the file.",
          params: API[name].params,
          querystring: API[name].query,
        },
      },
      async (request, reply) => {
        const attempt = request.headers[HEADERS.authorization];
        const embedToken = request.headers[HEADERS.embedToken];
        const answer = await exportsService.request(
          {
            viewer: request.auth ? actorOf(request) : null,
            password: typeof attempt === "string" && attempt !== "" ? attempt : null,
            clientAddress: request.ip,
            embedToken: typeof embedToken === "string" ? embedToken : null,
          },
          request.params.permalink,
          request.query,
          realtime,
        );
        reply.header("cache-control", "no-store");
        if (answer.kind === "pending") {
          if (answer.polled) return reply.code(304).send();
          return reply.code(202).send({ check: answer.check });
        }
        return reply
          .type("application/pdf")
          .header("content-disposition", attachment(answer.filename))
          .send(answer.bytes);
      },
    );
  }
}
