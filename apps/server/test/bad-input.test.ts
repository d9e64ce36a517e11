import { MAX_REGISTRATION_DASHBOARDS } from "@app/core";
import { beforeAll, describe, expect, it } from "vitest";
import { jsonTextProblem, MAX_JSON_DEPTH } from "../src/infra/body-parsers";
import { buildOwner } from "./factories";
import { describeEachDb, multipart, PNG_1X1, type TestClient } from "./harness";

/** Bad input (docs/decisions.md, "Bad input at the edge") gets a 400 or a 422 per field, never a 500, and changes nothing. */

const XHR = { "x-requested-with": "XMLHttpRequest" };
const nestedArrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

describe("jsonTextProblem", () => {
  it.each([
    ["flat object", '{"a":1}', null],
    ["brackets inside strings do not count", `{"a":"${"[".repeat(100)}"}`, null],
    ["an escaped quote does not end the string", `{"a":"\\"${"[".repeat(100)}"}`, null],
    ["an escaped backslash before u0000 is text, not NUL", '{"a":"\\\\u0000"}', null],
    ["exactly the limit", nestedArrays(MAX_JSON_DEPTH), null],
    ["one level over", nestedArrays(MAX_JSON_DEPTH + 1), "nested too deeply"],
    ["thousands of objects", nestedObjects(5000), "nested too deeply"],
    ["a NUL escape", '{"a":"x\\u0000y"}', "NUL"],
    ["a NUL escape after an escaped backslash", '{"a":"\\\\\\u0000"}', "NUL"],
    ["an escaped backslash ends before the closing quote", `{"a":"\\\\","b":${nestedArrays(40)}}`, "nested too deeply"],
    ["brackets after an escaped quote stay inside the string", `{"a":"\\"${"[".repeat(40)}","b":1}`, null],
    ["many strings with escapes", JSON.stringify(Array.from({ length: 200 }, (_, i) => `q"${i}\\n`)), null],
    ["an unterminated string", '{"a":"abc', null],
  ])("%s", (_label, text, problem) => {
    const found = jsonTextProblem(text, MAX_JSON_DEPTH);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });
});

/** Every route that reads a body through readForm/readBody, with a path that reaches the handler. */
const BODY_ROUTES: Array<["POST" | "PUT" | "DELETE", string]> = [
  ["POST", "/register"],
  ["POST", "/login"],
  ["POST", "/password/set"],
  ["POST", "/api/company"],
  ["DELETE", "/api/company"],
  ["POST", "/api/users"],
  ["PUT", "/api/users/{userId}"],
  ["POST", "/api/user/data"],
  ["POST", "/api/files/image"],
  ["DELETE", "/api/files"],
  ["POST", "/api/sources"],
  ["PUT", "/api/sources/{sourceId}"],
  ["POST", "/api/widgets/data"],
  ["POST", "/api/dashboards"],
  ["PUT", "/api/dashboards/{dashboardId}"],
  ["POST", "/api/dashboards/{dashboardId}"],
  ["POST", "/api/dashboards/{permalink}/widgets/{widgetId}/data"],
];
const PUBLIC_BODY_ROUTES = new Set([
  "/register",
  "/login",
  "/password/set",
  "/api/dashboards/{permalink}/widgets/{widgetId}/data",
]);

const BAD_MULTIPART: Array<[string, string, string | Buffer]> = (() => {
  const whole = multipart({ name: "x" }, { file: { filename: "a.png", type: "image/png", data: PNG_1X1 } });
  const type = whole.headers["content-type"];
  return [
    ["no boundary", "multipart/form-data", whole.payload],
    ["cut short", type, whole.payload.subarray(0, whole.payload.length - 30)],
    ["no closing boundary", type, whole.payload.subarray(0, whole.payload.lastIndexOf("--") - 10)],
    ["another boundary", "multipart/form-data; boundary=other", whole.payload],
    ["unterminated part header", "multipart/form-data; boundary=b", '--b\r\nContent-Disposition: form-data; name="a'],
    // Read as a form setting nothing, an empty body was a complete request where no field is needed:
    // DELETE /api/company canceled the company (found by fuzz.test.ts).
    ["empty", type, ""],
  ];
})();

describeEachDb("bad input", (env) => {
  let admin: TestClient;
  let guest: TestClient;
  const ids: Record<string, string> = {};
  let company: Record<string, unknown>;

  const url = (path: string) => path.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name]);

  beforeAll(async () => {
    ({ client: admin } = await buildOwner(env()));
    const created = await admin.api("POST", "/api/dashboards", { name: "Overview", template: "website-overview" });
    ids.permalink = created.json().data.permalink;
    const dashboard = (await admin.api("GET", `/api/dashboards/${ids.permalink}`)).json().data;
    ids.dashboardId = dashboard.id;
    ids.widgetId = dashboard.widgets[0].id;
    ids.sourceId = (await admin.api("GET", "/api/sources")).json().data[0].id;
    ids.userId = (await admin.pageData()).user.id;
    const saved = await admin.apiMultipart("POST", "/api/company", { name: "Acme", phone: "+1 555 0100" });
    expect(saved.statusCode).toBe(200);
    company = saved.json().data;
    guest = env().client();
    await guest.pageData();
  });

  const send = (
    client: TestClient,
    method: "POST" | "PUT" | "DELETE",
    path: string,
    type: string,
    payload: string | Buffer,
  ) =>
    client.raw(method, url(path), {
      payload,
      headers: { ...XHR, "x-identification": client.identification, "content-type": type },
    });

  it("JSON nested thousands of levels is a 400 on every body route, signed in and not", async () => {
    for (const [method, path] of BODY_ROUTES) {
      for (const client of PUBLIC_BODY_ROUTES.has(path) ? [admin, guest] : [admin]) {
        for (const payload of [nestedArrays(5000), nestedObjects(5000), `{"email":${nestedArrays(10_000)}}`]) {
          const response = await send(client, method, path, "application/json", payload);
          expect(response.statusCode, `${method} ${path}`).toBe(400);
          expect(response.json().message).toBe(
            `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels).`,
          );
        }
      }
    }
  });

  it("a body at the depth limit is parsed and validated (422), not refused for depth", async () => {
    const payload = JSON.stringify({ email: JSON.parse(nestedArrays(MAX_JSON_DEPTH - 1)), password: "x" });
    const response = await send(guest, "POST", "/login", "application/json", payload);
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(["email"]);
  });

  it("malformed or truncated multipart is a 400 on every body route, signed in and not", async () => {
    for (const [method, path] of BODY_ROUTES) {
      for (const client of PUBLIC_BODY_ROUTES.has(path) ? [admin, guest] : [admin]) {
        for (const [label, type, payload] of BAD_MULTIPART) {
          const response = await send(client, method, path, type, payload);
          expect(response.statusCode, `${method} ${path} (${label}): ${response.body}`).toBe(400);
          expect(response.json().message).toBe("The multipart body is malformed or incomplete.");
        }
      }
    }
    const after = (await admin.api("GET", "/api/company")).json().data;
    expect(after.state).toBe("trial");
  });

  it("JSON text inside form fields (widgets, styles, coupons) nested thousands of levels is a 422", async () => {
    const save = await admin.apiMultipart("POST", `/api/dashboards/${ids.dashboardId}`, {
      widgets: nestedArrays(100_000),
      styles: nestedObjects(100_000),
    });
    expect(save.statusCode).toBe(422);
    // Styles are strict: the nested object's key is not a style, named without reading what is under it.
    expect(Object.keys(save.json().errors)).toEqual(["styles.a", "widgets.0"]);
    const form = multipart({
      name: "Ada",
      email: "ada@example.com",
      password: "secret-pass-1",
      password_confirmation: "secret-pass-1",
      terms_consent: "1",
      age_consent: "1",
      coupons: nestedArrays(100_000),
    });
    const register = await guest.raw("POST", "/register", {
      payload: form.payload,
      headers: { ...XHR, ...form.headers },
    });
    expect(register.statusCode).toBe(422);
    expect(Object.keys(register.json().errors), register.body).toEqual(["coupon"]);
  });

  it("urlencoded keys never nest: a[b][c] is just an unknown field, and %00 is a 400", async () => {
    const nested = await send(guest, "POST", "/login", "application/x-www-form-urlencoded", "email[a][b]=1&password=x");
    expect(nested.statusCode).toBe(422);
    expect(nested.json().errors).toEqual({
      email: ["Invalid input: expected string, received undefined"],
      "email[a][b]": ["The email[a][b] field is not allowed."],
    });
    const nul = await send(guest, "POST", "/login", "application/x-www-form-urlencoded", "email=a%00b&password=x");
    expect(nul.statusCode).toBe(400);
  });

  it("NUL characters are refused in bodies and paths (PostgreSQL text cannot hold them)", async () => {
    const json = await send(guest, "POST", "/login", "application/json", '{"email":"a\\u0000@b.c","password":"x"}');
    expect(json.statusCode).toBe(400);
    const form = await admin.apiMultipart("POST", "/api/company", { name: "Ac\u0000me" });
    expect(form.statusCode).toBe(400);
    for (const path of ["/api/users/%00", "/api/sources/%00/properties", "/api/dashboards/%00"]) {
      const response = await admin.api("GET", path);
      expect(response.statusCode, path).toBe(422);
    }
    const search = await admin.api("GET", "/api/dashboards?search=%00");
    expect(search.statusCode).toBe(422);
  });

  it("a field called constructor or __proto__ is a 422 on that field", async () => {
    const response = await send(
      guest,
      "POST",
      "/login",
      "application/x-www-form-urlencoded",
      "email=a@b.c&password=x&constructor=1&__proto__=2",
    );
    expect(response.statusCode).toBe(422);
    const errors = response.json().errors;
    expect(Object.keys(errors)).toEqual(["constructor", "__proto__"]);
    expect(errors.constructor).toEqual(["The constructor field is not allowed."]);
    expect(Object.getOwnPropertyDescriptor(errors, "__proto__")?.value).toEqual([
      "The __proto__ field is not allowed.",
    ]);
  });

  it("company settings with nothing to change ({}, null, a text body, no body) change nothing", async () => {
    for (const [type, payload] of [
      ["application/json", "{}"],
      ["application/json", "null"],
      ["text/plain", "nothing to see"],
    ] as const) {
      const response = await send(admin, "POST", "/api/company", type, payload);
      expect(response.statusCode, `${type} ${payload}`).toBe(200);
      expect(response.json().data).toEqual(company);
    }
    const empty = await admin.api("POST", "/api/company");
    expect(empty.statusCode).toBe(200);
    expect((await admin.api("GET", "/api/company")).json().data).toEqual(company);
  });

  it("other updates with nothing to change are no-ops too (profile, user data)", async () => {
    const before = (await admin.api("GET", `/api/users/${ids.userId}`)).json().data;
    expect((await admin.api("PUT", `/api/users/${ids.userId}`, {})).statusCode).toBe(200);
    expect((await admin.api("POST", "/api/user/data", {})).statusCode).toBe(200);
    expect((await admin.api("GET", `/api/users/${ids.userId}`)).json().data).toEqual(before);
  });

  it("a JSON body that is not an object (list, text) is a 422, not 'nothing to change'", async () => {
    for (const payload of ["[]", '"text"', "5"]) {
      const response = await send(admin, "DELETE", "/api/company", "application/json", payload);
      expect(response.statusCode, payload).toBe(422);
    }
    expect((await admin.api("GET", "/api/company")).json().data.state).toBe(company.state);
  });

  it("the dashboard action {type: 'lock', category: 7} is refused per field and takes no lock", async () => {
    const path = `/api/dashboards/${ids.dashboardId}`;
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ type: "lock", category: 7 }, { category: ["The category must be refresh_permalink or new_password."] }],
      [{ type: "lock", category: "refresh_permalink" }, { category: ["The category field is not allowed with type."] }],
      [{ type: "lock", password: "abcd" }, { password: ["The password field is not allowed with type."] }],
      [{ type: "lock", extra: true }, { extra: ["The extra field is not allowed."] }],
      [
        { category: "refresh_permalink", password: "abcd" },
        { password: ["The password field is not allowed with this category."] },
      ],
      [{ category: "new_password" }, { password: ["The password field is required."] }],
      [{}, { type: ["The type or category field is required."] }],
    ];
    for (const [body, errors] of cases) {
      const response = await admin.api("PUT", path, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().errors).toEqual(errors);
    }
    const shown = (await admin.api("GET", `/api/dashboards/${ids.permalink}`)).json().data;
    expect(shown.locked).toBeNull();
    expect(shown.permalink).toBe(ids.permalink);
    expect(shown.passwordProtected).toBe(false);
    // The valid actions still work.
    const locked = await admin.api("PUT", path, { type: "lock" });
    expect(locked.statusCode).toBe(200);
    expect(locked.json().data.locked).toBe(ids.userId);
    expect((await admin.api("PUT", path, { type: "unlock" })).statusCode).toBe(200);
  });

  it("unknown fields are refused per field on the other contracts", async () => {
    const cases: Array<["POST" | "PUT" | "DELETE", string, Record<string, unknown>]> = [
      ["POST", "/api/dashboards", { name: "New", owner: "someone" }],
      ["POST", "/api/users", { name: "Mia", email: "mia@example.com", owner: "someone" }],
      ["PUT", `/api/users/${ids.userId}`, { name: "Olivia", owner: "someone" }],
      ["POST", "/api/user/data", { intro_passed: true, owner: "someone" }],
      ["DELETE", "/api/company", { delete: true, owner: "someone" }],
      ["DELETE", "/api/files", { filename: "x.png", owner: "someone" }],
      ["POST", "/api/sources", { name: "demo", owner: "someone" }],
      ["PUT", `/api/sources/${ids.sourceId}`, { owner: "someone" }],
      ["POST", "/api/company", { name: "Renamed", owner: "someone" }],
    ];
    for (const [method, path, body] of cases) {
      const response = await admin.api(method, path, body);
      expect(response.statusCode, `${method} ${path}`).toBe(422);
      expect(response.json().errors, `${method} ${path}`).toEqual({ owner: ["The owner field is not allowed."] });
    }
    const cancel = await admin.api("DELETE", "/api/company", { cancellation: { reason: "x", owner: "someone" } });
    expect(cancel.json().errors).toEqual({ "cancellation.owner": ["The owner field is not allowed."] });
    expect((await admin.api("GET", "/api/company")).json().data).toEqual(company);
    const dashboards = (await admin.api("GET", "/api/dashboards")).json().data;
    expect(dashboards).toHaveLength(1);
  });

  it(`registration allows at most ${MAX_REGISTRATION_DASHBOARDS} dashboards, with a message on dashboards`, async () => {
    const over = await env()
      .client()
      .register({ dashboards: MAX_REGISTRATION_DASHBOARDS + 1 });
    expect(over.response.statusCode).toBe(422);
    expect(over.response.json().errors).toEqual({
      dashboards: [`The dashboards may not be greater than ${MAX_REGISTRATION_DASHBOARDS}.`],
    });
    const huge = await env().client().register({ dashboards: "1e300" });
    expect(huge.response.statusCode).toBe(422);
    expect(Object.keys(huge.response.json().errors)).toEqual(["dashboards"]);
    const most = await env().client().register({ dashboards: MAX_REGISTRATION_DASHBOARDS });
    expect(most.response.statusCode).toBe(200);
  });
});
