import type { IncomingMessage, ServerResponse } from "node:http";
import { API, type BodyKind, ROLE_ADMIN, ROUTE_LINES, type RouteContract, type RouteName } from "@app/core";
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaCompiler,
  RawServerDefault,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import type { AuthState } from "../features/auth/service";
import type { Actor } from "../features/users/service";
import { JsonText, NUL_MESSAGE } from "./body-parsers";
import { AppError } from "./errors";

declare module "fastify" {
  interface FastifyRequest {
    auth: AuthState | null;
    guestId: string | null;
    /** Set when the request came to a company's verified custom domain (features/companies/host-routing). */
    whiteLabel: { companyId: string; siteTitle: string } | null;
  }
  interface FastifyContextConfig {
    /** Route answers without a signed-in user (page data, health, public dashboards). */
    public?: boolean;
    /** Route hands out page data: a visitor without cookies gets a guest id there (and only there). */
    pageData?: boolean;
    /** Other sites may frame this route (see ALLOW_FRAMING in infra/security-headers). */
    allowFraming?: boolean;
    /** A JSON body reaches the handler unparsed, as a JsonText (infra/body-parsers); readBody parses it. */
    jsonText?: boolean;
    /** A provider calls it (Stripe's webhook): no page header or identification; its signature is checked. */
    signedWebhook?: boolean;
  }
}

/** The Fastify instance type every feature registers its routes on. */
export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export const SESSION_COOKIE = "session";
export const GUEST_COOKIE = "guest";

/**
 * Turns zod issues into the product's per-field messages (first path segment is the field). A field a
 * strict contract does not know is reported under its own name, not as one 'general' message.
 */
export function issuesToFields(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string; code?: string; keys?: readonly string[] }>,
) {
  // A Map, not a plain object: a client's field may be called "constructor" or "__proto__".
  const fields = new Map<string, string[]>();
  const add = (path: ReadonlyArray<PropertyKey>, message: string) => {
    const key = path.length > 0 ? path.map(String).join(".") : "general";
    fields.set(key, [...(fields.get(key) ?? []), message]);
  };
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys" && issue.keys) {
      for (const unknown of issue.keys) add([...issue.path, unknown], `The ${unknown} field is not allowed.`);
    } else {
      add(issue.path, issue.message);
    }
  }
  return Object.fromEntries(fields);
}

/** Validates input against a contract schema; failure is a 422 with messages per field. */
export function parseInput<T extends z.ZodTypeAny>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw AppError.validation(issuesToFields(result.error.issues));
  return result.data;
}

const NUL = "\u0000";

/** How each route's body arrives, by "METHOD /path" (the contract's route table). */
const BODY_KINDS = new Map<string, BodyKind>(
  (Object.keys(ROUTE_LINES) as RouteName[]).flatMap((name) => {
    const contract: RouteContract = API[name];
    return contract.body ? [[ROUTE_LINES[name], contract.bodyKind ?? "json"] as const] : [];
  }),
);

/**
 * Validates a route's params, query and JSON body against its contract schema, failing exactly like
 * parseInput (a 422 with messages per field, unknown fields named): Fastify passes an Error returned
 * here to the error handler as it is. Bodies the handler reads itself (form posts, multipart, the
 * widget-data text, see BodyKind) are documented by their schema but not validated here, since the
 * schema cannot see them as they arrive; the handler validates them with the same schema.
 */
export const contractValidator: FastifySchemaCompiler<z.ZodType> = ({ schema, method, url, httpPart }) => {
  if (httpPart === "body" && (BODY_KINDS.get(`${method} ${url}`) ?? "json") !== "json") {
    return (data) => ({ value: data });
  }
  return (data) => {
    const result = schema.safeParse(httpPart === "body" ? (data ?? {}) : data);
    if (result.success) return { value: result.data };
    return { error: AppError.validation(issuesToFields(result.error.issues)) };
  };
};

/**
 * A JSON-body route also takes its fields as a multipart form (as an HTML form would send them): the
 * multipart parser leaves the body to the route, so the text fields are read here, before validation,
 * and a malformed multipart body is the same 400 as on the form routes.
 */
export function formFieldsForJsonRoutes(app: App): void {
  const readFields = async (request: FastifyRequest) => {
    if (!request.isMultipart()) return;
    const form = await readForm(request);
    // A JSON route takes no files: a file part is a field the contract does not know, refused by the
    // same strict validation as any other (so a body of files alone never passes as an empty request).
    request.body = { ...form.fields, ...Object.fromEntries(Object.keys(form.files).map((name) => [name, "(file)"])) };
  };
  // Added to the JSON-body routes only, so other routes (the widget-data hot path) pay nothing.
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => BODY_KINDS.get(`${method} ${route.url}`) === "json")) return;
    const existing = route.preValidation ?? [];
    route.preValidation = [...(Array.isArray(existing) ? existing : [existing]), readFields];
  });
}

export interface FormInput {
  fields: Record<string, string>;
  files: Record<string, { filename: string; mimetype: string; data: Buffer }>;
}

/** Reads a JSON, urlencoded or multipart body into text fields and files. */
export async function readForm(request: FastifyRequest): Promise<FormInput> {
  const form: FormInput = { fields: {}, files: {} };
  if (request.isMultipart()) {
    // A multipart body holds at least its closing delimiter. An empty one yields no parts and no error
    // from the parser, so it would read as a form that sets nothing: a complete request on a route where
    // no fields is valid (cancelling the company). It is malformed, like any cut-short body.
    const length = request.headers["content-length"];
    if (request.headers["transfer-encoding"] === undefined && (length === undefined || Number(length) === 0)) {
      throw asBadMultipart(new Error("empty multipart body"));
    }
    try {
      for await (const part of request.parts()) {
        if (part.fieldname.includes(NUL) || (part.type === "file" && part.filename.includes(NUL))) {
          throw new AppError("bad_request", NUL_MESSAGE);
        }
        if (part.type === "file") {
          const data = await part.toBuffer();
          if (data.length > 0)
            setOwn(form.files, part.fieldname, { filename: part.filename, mimetype: part.mimetype, data });
        } else {
          const value = String(part.value ?? "");
          if (value.includes(NUL)) throw new AppError("bad_request", NUL_MESSAGE);
          setOwn(form.fields, part.fieldname, value);
        }
      }
    } catch (error) {
      throw asBadMultipart(error);
    }
    return form;
  }
  const body = request.body;
  if (body && typeof body === "object") {
    for (const [key, value] of Object.entries(body)) {
      setOwn(form.fields, key, typeof value === "string" ? value : JSON.stringify(value));
    }
  }
  return form;
}

/**
 * Stores a client-named field as an own property: plain assignment of "__proto__" would set the
 * prototype instead, so the field would vanish rather than be refused by the strict contract.
 */
function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The multipart parser (busboy) reports a body without a boundary, a truncated body or a malformed
 * part header as a plain Error: that is the client's bad input, a 400. Errors that already carry a
 * 4xx status (size and count limits) keep it.
 */
function asBadMultipart(error: unknown): unknown {
  const status = (error as { statusCode?: number } | null)?.statusCode;
  if (error instanceof AppError || (status !== undefined && status >= 400 && status < 500)) return error;
  return new AppError("bad_request", "The multipart body is malformed or incomplete.");
}

/**
 * Raw JSON-or-form body, keeping JSON types (booleans, numbers, lists). No body (or JSON null) is an
 * empty object; any other non-object (a list, a text body) is passed on so validation refuses it
 * instead of reading it as "nothing to change".
 */
export async function readBody(request: FastifyRequest): Promise<unknown> {
  if (request.isMultipart()) return (await readForm(request)).fields;
  return bodyValue(request.body);
}

/** A parsed body as readBody gives it: a JsonText parsed (or its 400), no body an empty object. */
export async function bodyValue(body: unknown): Promise<unknown> {
  return (body instanceof JsonText ? await body.parse() : body) ?? {};
}

/**
 * A browser loading a page (a link, a redirect, the address bar), as opposed to a script's fetch or
 * an API client: browsers say so in Sec-Fetch-Mode; without it, an HTML-accepting request that is not
 * the SPA's XHR counts as one.
 */
export function isPageNavigation(request: FastifyRequest): boolean {
  const mode = request.headers["sec-fetch-mode"];
  if (mode) return mode === "navigate";
  return (
    request.headers["x-requested-with"] !== "XMLHttpRequest" &&
    String(request.headers.accept ?? "").includes("text/html")
  );
}

/** The signed-in session of the request, or 401. */
export function requireAuth(request: FastifyRequest): AuthState {
  if (!request.auth) throw new AppError("unauthenticated", "Unauthenticated.");
  return request.auth;
}

/** The acting user for services (id, company, role). */
export function actorOf(request: FastifyRequest): Actor {
  const { user } = requireAuth(request);
  return { id: user.id, companyId: user.company_id, roleName: user.role };
}

/** docs/product.md §6: admin-only actions answer 403 to other users. */
export function requireAdmin(request: FastifyRequest): Actor {
  const actor = actorOf(request);
  if (actor.roleName !== ROLE_ADMIN) throw AppError.forbidden();
  return actor;
}

/**
 * A route hook for admin-only routes whose body the contract validates: a non-admin hears 403 before
 * (not instead of) any 422 about the body, as when the handler checked the role first.
 */
export async function adminOnly(request: FastifyRequest): Promise<void> {
  requireAdmin(request);
}

/** Which browser and address a session's request came from (features/sessions lists them). */
export interface SessionClient {
  userAgent: string | null;
  address: string | null;
}

/**
 * The request's browser and address: `request.ip` follows TRUST_PROXY (app.ts), so behind a trusted
 * proxy it is the visitor's address, and a forged X-Forwarded-For is ignored otherwise. Cut to the
 * columns' sizes (migration 030).
 */
export function sessionClientOf(request: FastifyRequest): SessionClient {
  const userAgent = request.headers["user-agent"];
  return {
    userAgent: typeof userAgent === "string" && userAgent !== "" ? userAgent.slice(0, 512) : null,
    address: request.ip ? request.ip.slice(0, 64) : null,
  };
}

export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean, maxAgeDays: number): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    maxAge: maxAgeDays * 86400,
  });
}
