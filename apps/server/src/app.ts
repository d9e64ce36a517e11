import path from "node:path";
import { fileURLToPath } from "node:url";
import { HEADERS } from "@app/core";
import fastifyCookie from "@fastify/cookie";
import fastifyFormbody from "@fastify/formbody";
import fastifyMultipart from "@fastify/multipart";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from "fastify";
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { AppContext } from "./context";
import { authRoutes } from "./features/auth/routes";
import { type AuthState, authService } from "./features/auth/service";
import { companyRoutes } from "./features/companies/routes";
import { companiesService } from "./features/companies/service";
import { dashboardRoutes } from "./features/dashboards/routes";
import { dashboardsService } from "./features/dashboards/service";
import { fileRoutes } from "./features/files/routes";
import { filesService } from "./features/files/service";
import { healthRoutes } from "./features/health/routes";
import { metricsRoutes } from "./features/metrics/routes";
import { pageDataRoutes } from "./features/page-data/routes";
import { pageDataService } from "./features/page-data/service";
import { configRoutes } from "./features/sources/configs";
import { sourceRoutes } from "./features/sources/routes";
import { sourcesService } from "./features/sources/service";
import { templateResolver } from "./features/sources/template-instances";
import { userRoutes } from "./features/users/routes";
import { usersService } from "./features/users/service";
import { createTableCache } from "./features/widgets/query-runner";
import { widgetRoutes } from "./features/widgets/routes";
import { widgetsService } from "./features/widgets/service";
import { boundJsonBodies, parseFormText } from "./infra/body-parsers";
import { registerCompression } from "./infra/compression";
import { AppError } from "./infra/errors";
import { type App, GUEST_COOKIE, issuesToFields, SESSION_COOKIE } from "./infra/http";
import { newId, newToken, safeEqual } from "./infra/security";
import { securityHeaders } from "./infra/security-headers";
import { createSessionCache } from "./infra/session-cache";
import { MAX_UPLOAD_BYTES } from "./infra/storage";

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_WEB_DIST = path.resolve(here, "../../web/dist");

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Builds the Fastify app with every feature wired to the given infrastructure. */
export async function buildApp(ctx: AppContext, options: { webDist?: string } = {}): Promise<App> {
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
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { parser: parseFormText });
  boundJsonBodies(app);
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 10, fields: 50 } });
  await app.register(fastifyRateLimit, { global: false });
  // The browser sends its error reports to the DSN's host: the policy must let it.
  const browserDsn = ctx.config.errorReporting.browserDsn;
  securityHeaders(app, browserDsn ? [new URL(browserDsn).origin] : []);
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
  // --- sources, connectors and widget data: services ---
  const files = filesService(ctx, storage);
  const sources = sourcesService(ctx, files);
  const widgets = widgetsService(sources, createTableCache());
  // --- end sources services ---
  // Dashboards and companies refer to each other (allowance ↔ usage count): the counter is late-bound.
  const usage = { dashboards: async (_companyId: string) => 0 };
  const sessionCache = createSessionCache<AuthState>();
  const forgetSessions = () => sessionCache.clear();
  const companies = companiesService(
    ctx,
    storage,
    [async (companyId) => ({ dashboardsCount: await usage.dashboards(companyId) })],
    forgetSessions,
  );
  const auth = authService(ctx, companies, sessionCache);
  const users = usersService(ctx, forgetSessions);
  const pageData = pageDataService(ctx, auth, companies, sources.hasInvalidSource);
  const dashboards = dashboardsService(ctx, storage, companies, templateResolver(sources));
  usage.dashboards = dashboards.countActive;

  app.decorateRequest("auth", null);
  app.decorateRequest("guestId", null);

  // Session and request protection run before validation, so a bad session never sees a 422.
  app.addHook("onRequest", async (request, reply) => {
    request.auth = await auth.resolve(request.cookies[SESSION_COOKIE] ?? null);
    request.guestId = request.cookies[GUEST_COOKIE] ?? null;
    // A guest id is only minted where page data (and so an identification bound to it) is handed out:
    // the SPA's HTML (the not-found fallback) and /api/page-data; API calls and files do not pay for it.
    const needsGuest = request.is404 || request.routeOptions.config?.pageData === true;
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
    if (isApi && !url.startsWith("/api/docs") && !request.routeOptions.config?.public && !request.auth) {
      throw new AppError("unauthenticated", "Unauthenticated.");
    }
    if (SAFE_METHODS.has(request.method)) return;
    // Mutations must come from our own pages: same origin, XHR header, and (for /api) the page's identification.
    const origin = request.headers.origin;
    if (origin && originHost(origin) !== request.headers.host) {
      throw new AppError("session_mismatch", "Cross-origin request refused.");
    }
    if (isApi) {
      const identification = String(request.headers[HEADERS.identification] ?? "");
      const expected = auth.identificationFor(request.auth?.sessionId ?? null, request.guestId);
      if (request.headers[HEADERS.requestedWith] !== "XMLHttpRequest" || !safeEqual(identification, expected)) {
        throw new AppError("session_mismatch", "Page expired. Please reload the page.");
      }
    }
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      if (error.code === "validation")
        return reply.code(422).send({ message: error.message, errors: error.fields ?? {} });
      return reply.code(error.status).send({ code: error.code, message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: v.instancePath.split("/").filter(Boolean),
        message: v.message ?? "Invalid value.",
      }));
      return reply.code(422).send({ message: "The given data was invalid.", errors: issuesToFields(issues) });
    }
    // An upload over the size limit is bad input like any other: 422 on the file, not a bare 413.
    if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") {
      return reply
        .code(422)
        .send({ message: "The given data was invalid.", errors: { file: ["The file may not be greater than 5 MB."] } });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 429)
      return reply.code(429).send({ code: "too_many_requests", message: "Too many attempts. Please try again later." });
    if (status && status >= 400 && status < 500) {
      return reply.code(status).send({ code: "bad_request", message: (error as Error).message });
    }
    request.log.error({ err: error }, "unhandled error");
    ctx.errors.capture(error, {
      route: request.routeOptions.url,
      method: request.method,
      userId: request.auth?.user.id,
    });
    return reply.code(500).send({ code: "internal", message: "Server Error" });
  });

  healthRoutes(app, ctx.db);
  authRoutes(app, ctx, auth);
  companyRoutes(app, companies);
  userRoutes(app, users);
  // --- sources, connectors and widget data: routes ---
  sourceRoutes(app, sources);
  configRoutes(app);
  fileRoutes(app, files);
  widgetRoutes(app, widgets);
  // --- end sources routes ---
  dashboardRoutes(app, dashboards, widgets, {
    max: ctx.config.rateLimit.authMax * 10,
    timeWindow: ctx.config.rateLimit.windowMs,
  });
  await pageDataRoutes(app, pageData, options.webDist ?? DEFAULT_WEB_DIST, dashboards.pageTitle);
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
