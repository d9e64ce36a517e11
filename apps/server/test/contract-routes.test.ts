import { API, ROUTE_LINES, type RouteContract, type RouteName } from "@app/core";
import { expect, it } from "vitest";
import { describeEachDb } from "./harness";

interface Operation {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
}

/** Every route the server registered, from its OpenAPI document, as "METHOD /path/:param". */
function documentedRoutes(doc: { paths: Record<string, Record<string, Operation>> }) {
  const routes = new Map<string, Operation>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      routes.set(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ":$1")}`, operation);
    }
  }
  return routes;
}

const NAMES = Object.keys(ROUTE_LINES) as RouteName[];

describeEachDb("the contract: every route's inputs are declared", (env) => {
  it("the server serves exactly the routes of the contract's route table (plus public files)", () => {
    const routes = documentedRoutes(env().app.swagger() as never);
    const lines = new Set<string>(Object.values(ROUTE_LINES));
    const extra = [...routes.keys()].filter((line) => !lines.has(line));
    expect(extra).toEqual(["GET /files/:*"]);
    for (const line of lines) expect(routes.has(line), line).toBe(true);
  });

  it("every path parameter, query and body of the table is in the OpenAPI document", () => {
    const routes = documentedRoutes(env().app.swagger() as never);
    for (const [line, operation] of routes) {
      const parameters = operation.parameters ?? [];
      // Every :param of the path is described (and so validated) by a params schema.
      for (const [, name] of line.matchAll(/:([^/]+)/g)) {
        expect(
          parameters.some((p) => p.in === "path" && p.name === name),
          `${line}: path parameter ${name}`,
        ).toBe(true);
      }
      const method = line.split(" ")[0];
      if (method === "POST" || method === "PUT") expect(operation.requestBody, `${line}: request body`).toBeDefined();
    }
    for (const name of NAMES) {
      const contract: RouteContract = API[name];
      const operation = routes.get(ROUTE_LINES[name]) as Operation;
      if (contract.body) expect(operation.requestBody, `${name}: request body`).toBeDefined();
      if (contract.query) {
        expect(
          operation.parameters?.some((p) => p.in === "query") || name === "sourceOptions",
          `${name}: query parameters`,
        ).toBe(true);
      }
      if (contract.bodyKind === "multipart") {
        const form = operation.requestBody?.content["multipart/form-data"];
        expect(form, `${name}: multipart body`).toBeDefined();
      }
    }
  });

  it("multipart bodies describe their fields and file parts", () => {
    const routes = documentedRoutes(env().app.swagger() as never);
    const fields = (line: string) =>
      Object.keys(routes.get(line)?.requestBody?.content["multipart/form-data"]?.schema.properties ?? {});
    expect(fields(ROUTE_LINES.companyUpdate)).toEqual(expect.arrayContaining(["name", "domain", "logo"]));
    expect(fields(ROUTE_LINES.sourceCreate)).toEqual(expect.arrayContaining(["name", "file"]));
    expect(fields(ROUTE_LINES.fileUpload)).toEqual(["file"]);
    expect(fields(ROUTE_LINES.dashboardSave)).toEqual(expect.arrayContaining(["widgets", "styles", "name"]));
  });
});

describeEachDb("the error table", (env) => {
  it("a 422 carries its code with the per-field errors and message", async () => {
    const admin = env().client();
    await admin.signUpAndPassIntro();
    const answer = await admin.api("POST", "/api/users", { name: "", email: "not-an-email", extra: 1 });
    expect(answer.statusCode).toBe(422);
    expect(answer.json()).toEqual({
      code: "validation",
      message: "The given data was invalid.",
      errors: {
        name: ["The name field is required."],
        email: ["The email must be a valid email address."],
        extra: ["The extra field is not allowed."],
      },
    });
    // A handler-read form (registration) answers the same shape.
    const registration = await env().client().register({ email: "" });
    expect(registration.response.statusCode).toBe(422);
    expect(registration.response.json()).toMatchObject({ code: "validation", errors: { email: expect.any(Array) } });
  });

  it("a failing source is 502 source_error, from the table, on every route that reads it", async () => {
    const { AppError, ERRORS } = await import("../src/infra/errors");
    const { ConnectorError } = await import("../src/connectors/types");
    const { SourceFailure } = await import("../src/features/sources/service");
    for (const error of [new SourceFailure("s1"), new ConnectorError("provider said no")]) {
      expect(error).toBeInstanceOf(AppError);
      expect(error.status).toBe(ERRORS.source_error.status);
      expect(error.body()).toEqual({ code: "source_error", message: "Data Error" });
    }
  });
});

describeEachDb("role checks come before body validation", (env) => {
  it("a non-admin posting an invalid body to an admin route hears 403, not 422", async () => {
    const { inviteAndJoin } = await import("./harness");
    const admin = env().client();
    await admin.signUpAndPassIntro();
    const member = await inviteAndJoin(env, admin, "user");
    expect((await member.api("POST", "/api/users", { name: "", unknown: 1 })).statusCode).toBe(403);
    expect((await member.api("DELETE", "/api/company", { delete: "maybe", x: 1 })).statusCode).toBe(403);
    // The admin gets the 422 for the same bodies.
    expect((await admin.api("POST", "/api/users", { name: "", unknown: 1 })).statusCode).toBe(422);
  });
});
