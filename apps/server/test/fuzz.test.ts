import {
  ZCompanyDelete,
  ZCompanyUpdate,
  ZDashboardCreate,
  ZDashboardSave,
  ZDashboardWidgetDataRequest,
  ZFileDelete,
  ZLogin,
  ZRegister,
  ZSetPassword,
  ZSourceCreate,
  ZUserCreate,
  ZUserData,
  ZUserUpdate,
  ZWidgetDataRequest,
} from "@app/core";
import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { buildOwner } from "./factories";
import { describeEachDb, multipart, PNG_1X1, type TestClient, type TestEnv } from "./harness";

/**
 * Property-based bad input against every route of the OpenAPI document (docs/product.md §8: a clear error,
 * nothing lost). Signed in as the admin of a company with saved data, and as a guest, each route gets
 * generated bad bodies, queries and path parameters. Every answer must be below 500, no request may
 * throw (a reset connection), and what the company had saved reads back unchanged at the end.
 *
 * Signed in, generated input is always invalid so no request can legitimately change the saved data:
 * object bodies always carry a field no contract knows (strict contracts refuse it), path parameters
 * of mutating routes are never real ids, and "no body at all" is not sent to the two routes where it is
 * a complete valid request (cancelling the company, signing out).
 */

type Method = "GET" | "POST" | "PUT" | "DELETE";
interface Route {
  method: Method;
  path: string;
  params: string[];
  query: string[];
}
interface BadBody {
  label: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/**
 * Runs per route beyond the fixed cases; bounded so both databases finish well under a minute.
 * FUZZ_RUNS raises both for a longer local search.
 */
const SIGNED_IN_RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const GUEST_RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const UNKNOWN_FIELD = "fuzz_unknown_field";
/** Where an absent body is itself a complete, valid request that acts. */
const ACTS_WITHOUT_BODY = new Set(["DELETE /api/company", "POST /logout"]);
/** Routes that only read, so their path parameters may be the real saved ids. */
const READS = (route: Route) =>
  route.method === "GET" || route.path === "/api/dashboards/{permalink}/widgets/{widgetId}/data";

const shapeKeys = (schema: unknown) => Object.keys((schema as { shape?: Record<string, unknown> }).shape ?? {});
/** Field names the contracts know, so generated objects are near misses and not only noise. */
const KNOWN_FIELDS = [
  ...new Set(
    [
      ZRegister,
      ZLogin,
      ZSetPassword,
      ZCompanyUpdate,
      ZCompanyDelete,
      ZDashboardCreate,
      ZDashboardSave,
      ZWidgetDataRequest,
      ZDashboardWidgetDataRequest,
      ZFileDelete,
      ZUserCreate,
      ZUserUpdate,
      ZUserData,
      ZSourceCreate,
    ]
      .flatMap(shapeKeys)
      .concat(["type", "category", "password", "logo", "file", "instances", "widgets"]),
  ),
];

const NASTY_TEXT = [
  "",
  " ",
  "null",
  "true",
  "0",
  "-1",
  "1e309",
  "NaN",
  "__proto__",
  "constructor",
  "{}",
  "[]",
  '{"a":',
  "<script>alert(1)</script>",
  "\u0000",
  "../../test.sqlite",
  "2025-02-30",
  "9999-99-99",
  "lock",
  "new_password",
  "refresh_permalink",
];

const junkText = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 40, unit: "binary" }) },
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_TEXT) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 300_000 }).map((n) => "x".repeat(n)) },
);
const fieldName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...KNOWN_FIELDS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom("__proto__", "constructor", "prototype", "a[b][c]", "a.b", "0") },
);
const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: junkText },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53, -(2 ** 60), 1e308) },
  { weight: 1, arbitrary: fc.array(junkText, { maxLength: 5 }) },
);
const junkObject = fc.dictionary(fieldName, junkValue, { maxKeys: 6 });

const json = (label: string, payload: string): BadBody => ({
  label,
  headers: { "content-type": "application/json" },
  payload,
});

/** Multipart variants: well-formed (unknown field, junk file) and broken (no boundary, cut short, garbage). */
function multipartBodies(fields: Record<string, string>, cut: number): BadBody[] {
  const file = {
    filename: "x.png",
    type: "image/png",
    data: Buffer.concat([PNG_1X1.subarray(0, 20), Buffer.alloc(64, 7)]),
  };
  const whole = multipart(fields, { file, logo: file });
  const type = whole.headers["content-type"];
  const payload = whole.payload;
  return [
    { label: "multipart", headers: whole.headers, payload },
    { label: "multipart without boundary", headers: { "content-type": "multipart/form-data" }, payload },
    {
      label: "multipart cut short",
      headers: { "content-type": type },
      payload: payload.subarray(0, Math.floor((payload.length * cut) / 100)),
    },
    { label: "multipart other boundary", headers: { "content-type": `${type}x` }, payload },
    {
      label: "multipart garbage",
      headers: { "content-type": type },
      payload: Buffer.from("--\r\n\r\n--x--garbage\r\n"),
    },
    {
      label: "multipart bad part header",
      headers: { "content-type": "multipart/form-data; boundary=b" },
      payload: Buffer.from('--b\r\nContent-Disposition: form-data; name="a\r\n\r\nvalue\r\n--b--\r\n'),
    },
  ];
}

function urlencoded(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .flatMap(([key, value]) => {
      const text = typeof value === "string" ? value : JSON.stringify(value ?? null);
      return [`${encodeURIComponent(key)}=${encodeURIComponent(text)}`, `${encodeURIComponent(key)}[a][b]=1`];
    })
    .join("&");
}

/** A generated bad body; `strict` keeps it certainly invalid (an unknown field in every object). */
function badBody(strict: boolean, routeKey: string): fc.Arbitrary<BadBody> {
  const object = strict ? junkObject.map((o) => ({ ...o, [UNKNOWN_FIELD]: 1 })) : junkObject;
  const stringFields = object.map((o) =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v ?? null)])),
  );
  const kinds: fc.Arbitrary<BadBody>[] = [
    object.map((o) => json("json object", JSON.stringify(o))),
    fc
      .oneof(fc.array(junkValue, { maxLength: 4 }), junkText, fc.integer(), fc.boolean())
      .map((v) => json("json non-object", JSON.stringify(v))),
    fc
      .tuple(fc.integer({ min: 30, max: 20_000 }), fc.boolean())
      .map(([depth, arrays]) =>
        json(
          `json nested ${depth}`,
          arrays ? `${"[".repeat(depth)}${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
        ),
      ),
    fc.tuple(object, fc.nat({ max: 99 })).map(([o, cut]) => {
      const text = JSON.stringify(o);
      return json("json cut short", text.slice(0, Math.max(1, Math.floor((text.length * cut) / 100))));
    }),
    object.map((o) => ({
      label: "urlencoded",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: urlencoded(o),
    })),
    junkText.map((text) => ({ label: "text", headers: { "content-type": "text/plain" }, payload: text })),
    fc
      .tuple(stringFields, fc.nat({ max: 99 }), fc.nat({ max: 5 }))
      .map(([fields, cut, pick]) => multipartBodies(fields, cut)[pick]),
    fc.constantFrom<BadBody>(
      json("json empty", ""),
      json("json proto", '{"__proto__":{"polluted":1},"name":"x"}'),
      json("json constructor", '{"constructor":{"prototype":{"polluted":1}}}'),
      { label: "xml", headers: { "content-type": "application/xml" }, payload: "<a/>" },
      {
        label: "json over the size limit",
        headers: { "content-type": "application/json" },
        payload: `"${"x".repeat(2_200_000)}"`,
      },
    ),
  ];
  if (!strict) kinds.push(fc.constant(json("json null", "null")), fc.constant({ label: "no body", headers: {} }));
  else if (!ACTS_WITHOUT_BODY.has(routeKey)) kinds.push(fc.constant({ label: "no body", headers: {} }));
  return fc.oneof(...kinds);
}

const day = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .date({ min: new Date("2022-01-01"), max: new Date("2026-12-31"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
      .map(([y, m, d]) => `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`),
  },
);
const inputValue = fc.oneof(
  junkValue,
  fc.array(fc.oneof(fc.string({ maxLength: 12 }), fc.integer()), { maxLength: 6 }),
  fc.constantFrom("sessions", "country", "date", "acme-software", ""),
);

/**
 * A widget-data request that passes the contract's shapes but not necessarily its rules: the saved
 * widget's instances with one input, the source, the type or the range changed. It only reads, so
 * it reaches the planner and the connectors (the widget-data routes) with odd but well-typed input.
 */
function nearValidWidgetData(saved: Saved, withInstances: boolean): fc.Arbitrary<BadBody> {
  const instance = saved.instances[0];
  const changedInstance = fc.oneof(
    fc
      .tuple(fc.constantFrom(...Object.keys(instance.inputs), "metrics", "dimension", "property", "x"), inputValue)
      .map(([key, value]) => ({ ...instance, inputs: { ...instance.inputs, [key]: value } })),
    fc
      .tuple(fc.constantFrom("sourceId", "type", "config", "prefix", "currency", "id"), fc.option(junkText))
      .map(([key, value]) => ({ ...instance, [key]: value })),
    fc.constant(instance),
  );
  return fc
    .record({
      instances: fc.array(changedInstance, { minLength: 1, maxLength: 3 }),
      startDate: day,
      endDate: day,
      compareStartDate: fc.option(day),
      compareEndDate: fc.option(day),
      comparison: fc.boolean(),
      timezone: fc.oneof(fc.constantFrom("UTC", "Europe/Berlin", "Pacific/Kiritimati", "Mars/Olympus", ""), junkText),
    })
    .map(({ instances, ...range }) =>
      json("near-valid widget data", JSON.stringify(withInstances ? { instances, ...range } : range)),
    );
}

/** Sent to every route that takes a body, before the generated ones: the failures found from outside. */
function fixedBodies(strict: boolean, routeKey: string): BadBody[] {
  const unknown = strict ? { [UNKNOWN_FIELD]: 1 } : {};
  const bodies = [
    json("json nested 5000 (arrays)", `{"email":${"[".repeat(5000)}${"]".repeat(5000)}}`),
    json("json nested 5000 (objects)", `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`),
    json("json nested 33", `${"[".repeat(33)}${"]".repeat(33)}`),
    json("json type and category", JSON.stringify({ type: "lock", category: 7, ...unknown })),
    json("json wrong types", JSON.stringify({ name: 5, email: [], password: {}, widgets: 1, ...unknown })),
    json("json list", "[]"),
    json("json text", '"text"'),
    json("json empty", ""),
    { label: "text", headers: { "content-type": "text/plain" }, payload: "text" },
    ...multipartBodies({ name: "x", ...(strict ? { [UNKNOWN_FIELD]: "1" } : {}) }, 60),
  ];
  if (!strict) bodies.push(json("json null", "null"), json("json object", "{}"));
  if (!strict || !ACTS_WITHOUT_BODY.has(routeKey)) bodies.push({ label: "no body", headers: {} });
  return bodies;
}

/** Path parameter values: junk (encoded), raw broken escapes, and for reading routes the real ids. */
function paramValue(real: string[]): fc.Arbitrary<string> {
  const junk = fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 30, unit: "grapheme" }).map(encodeURIComponent) },
    { weight: 2, arbitrary: fc.constantFrom("%", "%zz", "%E0%A4%A", "%00", "..", "%2e%2e", "%2F", "~", "-1", "0") },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 5_000 }).map((n) => "a".repeat(n)) },
  );
  return real.length > 0
    ? fc.oneof({ weight: 1, arbitrary: junk }, { weight: 3, arbitrary: fc.constantFrom(...real) })
    : junk;
}

function queryString(names: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(fc.constantFrom(...names, "page", "timezone", "a[b]", "__proto__"), fc.string({ maxLength: 8 }));
  const value = fc.oneof(
    junkText.filter((t) => t.length < 20_000).map((t) => encodeURIComponent(t.replace(/[\uD800-\uDFFF]/g, ""))),
    fc.constantFrom("%", "%zz", "%E0%A4%A", "%00", "-1", "0", "1e400", "true", "false"),
  );
  return fc
    .array(fc.tuple(key, value), { maxLength: 5 })
    .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join("&"));
}

function routesOf(env: TestEnv): Route[] {
  const doc = env.app.swagger() as {
    paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>>;
  };
  const routes: Route[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const parameters = operation.parameters ?? [];
      routes.push({
        method: method.toUpperCase() as Method,
        path,
        params: parameters.filter((p) => p.in === "path").map((p) => p.name),
        query: parameters.filter((p) => p.in === "query").map((p) => p.name),
      });
    }
  }
  return routes;
}

interface Saved {
  permalink: string;
  dashboardId: string;
  widgetId: string;
  sourceId: string;
  userId: string;
  logo: string;
  /** Instances of a saved chart widget, for near-valid widget-data requests. */
  instances: Array<Record<string, unknown> & { inputs: Record<string, unknown> }>;
}

/** The company's saved data as the app answers it; compared before and after the fuzzing. */
async function snapshot(admin: TestClient, saved: Saved) {
  const reads = [
    "/api/company",
    "/api/sources",
    "/api/users",
    `/api/users/${saved.userId}`,
    "/api/dashboards?active=true",
    "/api/dashboards?active=false",
    `/api/dashboards/${saved.permalink}`,
  ];
  const answers: Record<string, unknown> = {};
  for (const url of reads) {
    const response = await admin.api("GET", url);
    expect(response.statusCode, url).toBe(200);
    answers[url] = response.json();
  }
  const page = await admin.pageData();
  answers.pageData = { user: page.user, company: page.company };
  return answers;
}

async function seedCompany(admin: TestClient): Promise<Saved> {
  const created = await admin.api("POST", "/api/dashboards", { name: "Overview", template: "website-overview" });
  expect(created.statusCode).toBe(200);
  const permalink = created.json().data.permalink;
  const dashboard = (await admin.api("GET", `/api/dashboards/${permalink}`)).json().data;
  expect(dashboard.widgets.length).toBeGreaterThan(0);
  const settings = await admin.apiMultipart(
    "POST",
    "/api/company",
    { name: "Acme Agency", phone: "+1 555 0100", site_title: "Acme Reports", domain: "reports.acme.test" },
    { logo: { filename: "logo.png", type: "image/png", data: PNG_1X1 } },
  );
  expect(settings.statusCode).toBe(200);
  const sources = (await admin.api("GET", "/api/sources")).json().data;
  expect(sources.length).toBe(1);
  const page = await admin.pageData();
  return {
    permalink,
    dashboardId: dashboard.id,
    widgetId: dashboard.widgets[0].id,
    sourceId: sources[0].id,
    userId: page.user.id,
    logo: String(settings.json().data.logo),
    instances: dashboard.widgets.find((w: { nature: string }) => w.nature === "interactive").instances,
  };
}

function realValues(saved: Saved, name: string): string[] {
  switch (name) {
    case "permalink":
      return [saved.permalink];
    case "widgetId":
      return [saved.widgetId];
    case "id":
      return [saved.sourceId, saved.userId, saved.dashboardId];
    case "option":
      return ["properties", "metrics", "dimensions"];
    case "type":
      return ["demo", "demo.analytics"];
    case "*":
      return [saved.logo.replace(/^\/files\//, "")];
    default:
      return [];
  }
}

/** Answers seen per status, to show the run reached the routes (not only the request protection). */
const statuses = new Map<number, number>();

async function send(client: TestClient, route: Route, url: string, body: BadBody | null) {
  const headers = { "x-requested-with": "XMLHttpRequest", "x-identification": client.identification };
  const what = `${route.method} ${url.slice(0, 160)} ${body ? `[${body.label}]` : ""}`;
  let response: Awaited<ReturnType<TestClient["raw"]>>;
  try {
    response = await client.raw(route.method, url, {
      headers: { ...headers, ...body?.headers },
      ...(body?.payload !== undefined ? { payload: body.payload } : {}),
    });
  } catch (error) {
    throw new Error(`${what}: the request failed without an answer (${String(error)})`);
  }
  statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
  if (response.statusCode >= 500) {
    throw new Error(`${what}: ${response.statusCode} ${response.body.slice(0, 300)}`);
  }
}

async function fuzzRoute(client: TestClient, route: Route, strict: boolean, saved: Saved, numRuns: number) {
  const key = `${route.method} ${route.path}`;
  const params = fc.tuple(...route.params.map((name) => paramValue(READS(route) ? realValues(saved, name) : [])));
  const body =
    route.method === "GET"
      ? fc.constant(null)
      : READS(route) || route.path === "/api/widgets/data"
        ? fc.oneof(badBody(strict, key), nearValidWidgetData(saved, route.path === "/api/widgets/data"))
        : badBody(strict, key);
  const build = (values: string[], query: string) => {
    let url = route.path;
    route.params.forEach((name, i) => {
      url = url.replace(`{${name}}`, values[i]);
    });
    return query ? `${url}?${query}` : url;
  };
  const firstParams = route.params.map((name) => (READS(route) ? (realValues(saved, name)[0] ?? "x") : "x"));
  const examples: [string[], string, BadBody | null][] =
    route.method === "GET"
      ? [[firstParams, "", null]]
      : fixedBodies(strict, key).map((fixed) => [firstParams, "", fixed]);
  await fc.assert(
    fc.asyncProperty(params, queryString(route.query), body, async (values, query, generated) => {
      await send(client, route, build(values, query), generated);
    }),
    { numRuns: numRuns + examples.length, examples, endOnFailure: true },
  );
}

describeEachDb("fuzz: bad input never gets a 5xx and loses nothing", (env) => {
  let admin: TestClient;
  let saved: Saved;
  let before: Record<string, unknown>;
  let routes: Route[];

  beforeAll(async () => {
    statuses.clear();
    ({ client: admin } = await buildOwner(env()));
    saved = await seedCompany(admin);
    before = await snapshot(admin, saved);
    routes = routesOf(env());
  });

  it("the OpenAPI document lists every route, including those without a session", () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    for (const key of [
      "POST /login",
      "POST /register",
      "POST /api/company",
      "PUT /api/dashboards/{id}",
      "GET /files/{*}",
    ])
      expect(keys).toContain(key);
    expect(routes.length).toBeGreaterThan(30);
  });

  it("signed in as an admin with saved data: every route, no 5xx, data unchanged", { timeout: 120_000 }, async () => {
    for (const route of routes) {
      if (route.method === "POST" && route.path === "/logout") continue; // signing out is what it does with any body
      await fuzzRoute(admin, route, true, saved, SIGNED_IN_RUNS);
    }
    // Still signed in and nothing the company saved has changed.
    expect(await snapshot(admin, saved)).toEqual(before);
    // The inputs reached validation (422), body parsing (400) and the services (404), not only the guards.
    for (const status of [400, 404, 422]) expect(statuses.get(status) ?? 0).toBeGreaterThan(20);
  });

  it("as a guest: every route, no 5xx", { timeout: 120_000 }, async () => {
    const guest = env().client();
    await guest.pageData();
    for (const route of routes) await fuzzRoute(guest, route, false, saved, GUEST_RUNS);
    expect(await snapshot(admin, saved)).toEqual(before);
  });
});
