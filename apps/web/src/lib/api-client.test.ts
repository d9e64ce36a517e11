import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, call, callWithHeaders } from "./api";

interface Sent {
  url: string;
  init: RequestInit;
}

/** Answers every fetch with `answer` and records what was sent. */
function stubFetch(answer: { status?: number; body?: unknown; headers?: Record<string, string> } = {}) {
  const sent: Sent[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    const status = answer.status ?? 200;
    const text = answer.body === undefined ? "" : JSON.stringify(answer.body);
    return new Response(status === 204 ? null : text, {
      status,
      headers: { "content-type": "application/json", ...answer.headers },
    });
  });
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

describe("the typed API client (routes by name from the contract's table)", () => {
  it("builds method and path from the table, encoding each parameter, and sends the body as JSON", async () => {
    const sent = stubFetch({ body: { data: { id: "a/b", name: "Ann" } } });
    const answer = await call("userUpdate", { params: { id: "a/b" }, body: { name: "Ann" } });
    expect(sent[0].url).toBe("/api/users/a%2Fb");
    expect(sent[0].init.method).toBe("PUT");
    expect(sent[0].init.body).toBe('{"name":"Ann"}');
    expect(new Headers(sent[0].init.headers).get("content-type")).toBe("application/json");
    expect(new Headers(sent[0].init.headers).get("x-requested-with")).toBe("XMLHttpRequest");
    expect(answer.data.name).toBe("Ann");
  });

  it("sends list query values as repeated keys and leaves absent ones out", async () => {
    const sent = stubFetch({ body: { data: [] } });
    await call("sourceOptions", { params: { id: "s1", option: "metrics" }, query: { metrics: ["a", "b"], site: "x" } });
    expect(sent[0].url).toBe("/api/sources/s1/metrics?metrics=a&metrics=b&site=x");
    expect(sent[0].init.method).toBe("GET");
    await call("dashboardsList", { query: { active: "true", search: undefined } });
    expect(sent[1].url).toBe("/api/dashboards?active=true");
  });

  it("sends multipart forms as they are (the browser sets the boundary)", async () => {
    const sent = stubFetch({ body: { data: { id: "s1" } } });
    const form = new FormData();
    form.append("name", "csv");
    await call("sourceCreate", { form });
    expect(sent[0].init.body).toBe(form);
    expect(new Headers(sent[0].init.headers).get("content-type")).toBeNull();
  });

  it("routes without inputs need none; a 204 answers undefined; answer headers are readable", async () => {
    const sent = stubFetch({ status: 204 });
    expect(await call("logout")).toBeUndefined();
    expect(sent[0]).toMatchObject({ url: "/logout", init: { method: "POST" } });
    stubFetch({ body: { data: {} }, headers: { "x-public": "1" } });
    const { headers } = await callWithHeaders("dashboardShow", { params: { permalink: "p" }, query: {} });
    expect(headers.get("x-public")).toBe("1");
  });

  it("a failure is an ApiError with the parsed body", async () => {
    stubFetch({ status: 422, body: { code: "validation", message: "Invalid.", errors: { name: ["Required."] } } });
    const failure = await call("userInvite", { body: { name: "", email: "x" } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(422);
  });

  it("inputs are typed by the contract (checked by tsc); at run time the path still comes from the table", async () => {
    const sent = stubFetch({ body: { data: [] } });
    // @ts-expect-error -- userUpdate needs its id parameter
    await call("userUpdate", { body: {} });
    // @ts-expect-error -- a field the contract does not know
    await call("fileDelete", { body: { file: "x" } });
    // A missing id leaves the segment empty (the server answers 404): nothing is guessed or invented.
    expect(sent.map((request) => [request.init.method, request.url])).toEqual([
      ["PUT", "/api/users/"],
      ["DELETE", "/api/files"],
    ]);
  });
});
