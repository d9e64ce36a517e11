import type { IncomingMessage, ServerResponse } from "node:http";
import { ROLE_ADMIN } from "@app/core";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, RawServerDefault } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import type { AuthState } from "../features/auth/service";
import type { Actor } from "../features/users/service";
import { AppError } from "./errors";

declare module "fastify" {
  interface FastifyRequest {
    auth: AuthState | null;
    guestId: string | null;
  }
  interface FastifyContextConfig {
    /** Route answers without a signed-in user (page data, health, public dashboards). */
    public?: boolean;
    /** Route hands out page data: a visitor without cookies gets a guest id there (and only there). */
    pageData?: boolean;
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

/** Turns zod issues into the spec's per-field messages (first path segment is the field). */
export function issuesToFields(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>) {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join(".") : "general";
    fields[key] = [...(fields[key] ?? []), issue.message];
  }
  return fields;
}

/** Validates input against a contract schema; failure is a 422 with messages per field. */
export function parseInput<T extends z.ZodTypeAny>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw AppError.validation(issuesToFields(result.error.issues));
  return result.data;
}

export interface FormInput {
  fields: Record<string, string>;
  files: Record<string, { filename: string; mimetype: string; data: Buffer }>;
}

/** Reads a JSON, urlencoded or multipart body into text fields and files. */
export async function readForm(request: FastifyRequest): Promise<FormInput> {
  const form: FormInput = { fields: {}, files: {} };
  if (request.isMultipart()) {
    for await (const part of request.parts()) {
      if (part.type === "file") {
        const data = await part.toBuffer();
        if (data.length > 0) form.files[part.fieldname] = { filename: part.filename, mimetype: part.mimetype, data };
      } else {
        form.fields[part.fieldname] = String(part.value ?? "");
      }
    }
    return form;
  }
  const body = request.body;
  if (body && typeof body === "object") {
    for (const [key, value] of Object.entries(body)) {
      form.fields[key] = typeof value === "string" ? value : JSON.stringify(value);
    }
  }
  return form;
}

/** Raw JSON-or-form body as an object, keeping JSON types (booleans, numbers, lists). */
export async function readBody(request: FastifyRequest): Promise<Record<string, unknown>> {
  if (request.isMultipart()) return (await readForm(request)).fields;
  const body = request.body;
  return body && typeof body === "object" ? (body as Record<string, unknown>) : {};
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

/** Spec §6: admin-only actions answer 403 to other users. */
export function requireAdmin(request: FastifyRequest): Actor {
  const actor = actorOf(request);
  if (actor.roleName !== ROLE_ADMIN) throw AppError.forbidden();
  return actor;
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
