import path from "node:path";
import { HEADERS } from "@app/core";
import fastifyCookie from "@fastify/cookie";
import fastifyFormbody from "@fastify/formbody";
import fastifyMultipart from "@fastify/multipart";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { jsonSchemaTransform, serializerCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "./context";
import { buildFeatureServices, FEATURES } from "./features";
import { hostRouting } from "./features/companies/host-routing";
import { metricsRoutes } from "./features/metrics/routes";
import { boundJsonBodies, parseFormText } from "./infra/body-parsers";
import { registerCompression } from "./infra/compression";
import { REPOSITORY_ROOT } from "./infra/env-file";
import { AppError, asAppError } from "./infra/errors";
import {
  type App,
  contractValidator,
  formFieldsForJsonRoutes,
  GUEST_COOKIE,
  SESSION_COOKIE,
  sessionClientOf,
} from "./infra/http";
import { sharedRateLimitStore } from "./infra/http-rate-limit";
import { lingerBeforeClosing } from "./infra/lingering-close";
import { newId, newToken, safeEqual } from "./infra/security";
import { paymentOrigins, securityHeaders } from "./infra/security-headers";
import { MAX_UPLOAD_BYTES } from "./infra/storage";

export const DEFAULT_WEB_DIST = path.join(REPOSITORY_ROOT, "apps/web/dist");

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Builds the Fastify app: the plumbing every route shares, then every feature's own routes (FEATURES). */
export async function buildApp(
  ctx: AppContext,
  options: { webDist?: string; services?: ReturnType<typeof buildFeatureServices> } = {},
): Promise<App> {
  const requestIdPrefix = `${newId(3)}-`;
  let requestCount = 0;
  const app = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    // Only the configured proxies may set X-Forwarded-For; otherwise a client could pick its own
    // address and walk past every per-address rate limit.
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 2 * 1024 * 1024,
    // Requests get their own child logger with this id (pino), so a log line leads back to its request.
    // A counter behind a per-process prefix: unique without asking the CSPRNG on every request.
    genReqId: () => requestIdPrefix + (++requestCount).toString(36),
    logController: new AccessLogController(),
    // A graceful shutdown (main.ts) lets in-flight requests finish. A request whose connection was open
    // and whose headers were already sent when SIGTERM came, but which a busy event loop read only after
    // it, is in flight too: Fastify's default would answer it 503. It is served instead; its connection
    // closes after the answer (Fastify sets Connection: close while closing), and server.close() takes no
    // new connections, so the drain still ends.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
  // An answer given before the request's body has arrived (a 413, an early 401) must reach the client.
  lingerBeforeClosing(app.server);
  app.setValidatorCompiler(contractValidator);
  formFieldsForJsonRoutes(app);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { parser: parseFormText });
  boundJsonBodies(app);
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 10, fields: 50 } });
  await app.register(fastifyRateLimit, { global: false, store: sharedRateLimitStore(ctx.rateLimits) });
  // The browser sends its error reports to the DSN's host: the policy must let it.
  const browserDsn = ctx.config.errorReporting.browserDsn;
  securityHeaders(
    app,
    browserDsn ? [new URL(browserDsn).origin] : [],
    ctx.config.embedFrameAncestors,
    paymentOrigins(ctx.config.stripe?.jsUrl),
  );
  await app.register(fastifySwagger, {
    openapi: { info: { title: "Reportz API", version: "1.0.0" } },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs" });
  // JSON and HTML over 1 KB leave brotli/gzip-compressed; built files are precompressed (page-data routes).
  registerCompression(app);
  // Counts every answered request by route; GET /metrics.
  metricsRoutes(app, ctx);

  const storage = ctx.storage;
  // Every feature's services (built here unless the caller, which also defines the jobs, built them).
  const services = options.services ?? buildFeatureServices(ctx);
  if (!options.services) app.addHook("onClose", async () => services.close());
  const auth = services.get("auth");

  app.decorateRequest("auth", null);
  app.decorateRequest("guestId", null);
  app.decorateRequest("whiteLabel", null);

  // Custom domains first: a request there that is not one of the company's shared dashboards is a
  // 404 before anything else (a session, a rate limit) is looked at.
  app.addHook("onRequest", hostRouting(services.get("companies"), services.get("dashboards").ownerOf));

  // Session and request protection run before validation, so a bad session never sees a 422.
  app.addHook("onRequest", async (request, reply) => {
    // Nobody signs in on a custom domain: its pages are the public views, whatever cookie comes along.
    const token = request.cookies[SESSION_COOKIE] ?? null;
    request.auth = request.whiteLabel ? null : await auth.resolve(token, sessionClientOf(request));
    request.guestId = request.cookies[GUEST_COOKIE] ?? null;
    // A guest id is only minted where page data (and so an identification bound to it) is handed out:
    // the SPA's HTML (the not-found fallback) and /api/page-data; API calls and files do not pay for it.
    // Read once: Fastify builds a new routeOptions object on every access.
    const routeConfig = request.routeOptions.config;
    const needsGuest = request.is404 || routeConfig?.pageData === true;
    if (needsGuest && !request.auth && !request.guestId && request.method === "GET") {
      request.guestId = newToken();
      reply.setCookie(GUEST_COOKIE, request.guestId, {
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        secure: ctx.config.secureCookies,
      });
    }
    const url = request.url.split("?")[0];
    const isApi = url.startsWith("/api/");
    if (isApi && !url.startsWith("/api/docs") && !routeConfig?.public && !request.auth) {
      throw new AppError("unauthenticated", "Unauthenticated.");
    }
    if (SAFE_METHODS.has(request.method)) return;
    // Mutations must come from our own pages: same origin, XHR header, and (for /api) the page's identification.
    const origin = request.headers.origin;
    if (origin && originHost(origin) !== request.headers.host) {
      throw new AppError("session_mismatch", "Cross-origin request refused.");
    }
    // A provider's signed webhook cannot carry our page's header; the route checks its signature instead.
    if (isApi && !routeConfig?.signedWebhook) {
      const identification = String(request.headers[HEADERS.identification] ?? "");
      const expected = auth.identificationFor(request.auth?.sessionId ?? null, request.guestId);
      if (request.headers[HEADERS.requestedWith] !== "XMLHttpRequest" || !safeEqual(identification, expected)) {
        throw new AppError("session_mismatch", "Page expired. Please reload the page.");
      }
    }
  });

  // A company that requires two-factor: a member without it may only set it up (features/two-factor).
  app.addHook("onRequest", services.get("twoFactor").enforceRequirement);

  app.setErrorHandler((error, request, reply) => {
    const known = asAppError(error);
    if (known) return reply.code(known.status).send(known.body());
    // Other 4xx of Fastify and its plugins (unsupported media type, malformed body…) keep their status.
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.code(status).send({ code: "bad_request", message: (error as Error).message });
    }
    request.log.error({ err: error }, "unhandled error");
    ctx.errors.capture(error, {
      route: request.routeOptions.url,
      method: request.method,
      userId: request.auth?.user.id,
    });
    return reply.code(500).send(new AppError("internal").body());
  });

  for (const feature of FEATURES)
    await feature.routes?.(app, ctx, services, { webDist: options.webDist ?? DEFAULT_WEB_DIST });
  // Public images only (logos, style and widget images, shown on shared dashboards). Uploaded data
  // files such as CSV sources are tenant data: read by connectors on the server, never served here.
  app.get("/files/*", { config: { public: true } }, async (request, reply) => {
    const path = request.url.split("?")[0];
    if (!PUBLIC_FILE_TYPES.has(extension(path)))
      return reply.code(404).send({ code: "not_found", message: "Not found." });
    const bytes = await storage.read(path);
    if (!bytes) return reply.code(404).send({ code: "not_found", message: "Not found." });
    return reply.type(fileType(request.url)).header("cache-control", "public, max-age=31536000, immutable").send(bytes);
  });

  return app;
}

/**
 * One access line per request, when it completes, carrying the request too; Fastify's default writes
 * two ("incoming request", "request completed"), a sizeable part of a small request's cost.
 */
class AccessLogController extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) super.requestCompleted(error, request, reply);
    // Flat fields instead of pino's req/res serializers: the same facts at a fraction of the cost.
    else
      request.log.info(
        {
          method: request.method,
          url: request.url,
          statusCode: reply.statusCode,
          ip: request.ip,
          responseTime: reply.elapsedTime,
        },
        "request completed",
      );
  }
}

/** Host of an Origin header; `null` (sandboxed frames) and garbage count as foreign. */
function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

const PUBLIC_FILE_TYPES = new Map([
  ["png", "image/png"],
  ["jpg", "image/jpeg"],
  ["webp", "image/webp"],
]);

function extension(url: string): string {
  return path.extname(url).slice(1).toLowerCase();
}

function fileType(url: string): string {
  return PUBLIC_FILE_TYPES.get(extension(url.split("?")[0])) ?? "application/octet-stream";
}
