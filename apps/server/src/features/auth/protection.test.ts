import { describe, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { describeEachDb, multipart, PNG_1X1, startTestEnv } from "../../../test/harness";

describeEachDb("request protection (review findings)", (env) => {
  it("an unparseable Origin (sandboxed frames send 'null') is a 419, not a 500", async () => {
    const { client } = await buildOwner(env());
    const response = await client.api("POST", "/api/company", { name: "X" }, { origin: "null" });
    expect(response.statusCode).toBe(419);
  });

  it("uploaded CSV data is never served from the public /files/ folder; images are", async () => {
    const { client: owner, company } = await buildOwner(env());
    const body = multipart(
      { name: "csv" },
      { file: { filename: "secret.csv", type: "text/csv", data: Buffer.from("a,b\nx,1\n") } },
    );
    const created = await owner.raw("POST", "/api/sources", {
      payload: body.payload,
      headers: { ...body.headers, "x-requested-with": "XMLHttpRequest", "x-identification": owner.identification },
    });
    expect(created.statusCode).toBe(200);
    const stored = await env()
      .ctx.db.selectFrom("files")
      .select("path")
      .where("company_id", "=", company.id)
      .executeTakeFirstOrThrow();
    expect((await owner.raw("GET", stored.path)).statusCode).toBe(404);
    const image = await owner.apiMultipart(
      "POST",
      "/api/files/image",
      {},
      { file: { filename: "a.png", type: "image/png", data: PNG_1X1 } },
    );
    const served = await env().client().raw("GET", image.json().data.filename);
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
  });

  it("an upload over 5 MB is a 422 on the file", async () => {
    const { client } = await buildOwner(env());
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(6 * 1024 * 1024)]);
    const response = await client.apiMultipart(
      "POST",
      "/api/files/image",
      {},
      { file: { filename: "big.png", type: "image/png", data: big } },
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.file).toEqual(["The file may not be greater than 5 MB."]);
  });

  it("wrong dashboard passwords are limited per dashboard and address, on every route that takes one", async () => {
    const { client: owner } = await buildOwner(env());
    const created = await owner.api("POST", "/api/dashboards", { name: "Guarded", template: "website-overview" });
    const permalink = created.json().data.permalink;
    const dashboard = (await owner.api("GET", `/api/dashboards/${permalink}`)).json().data;
    await owner.api("PUT", `/api/dashboards/${dashboard.id}`, { category: "new_password", password: "right-one" });
    const guest = env().client();
    const range = { startDate: "2026-10-01", endDate: "2026-10-31" };
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const url = `/api/dashboards/${permalink}/widgets/${i % 2 ? "nope" : dashboard.widgets[0].id}/data`;
      statuses.push((await guest.api("POST", url, range, { "x-authorization": `guess-${i}` })).statusCode);
    }
    expect(statuses.every((s) => s === 422)).toBe(true);
    const blocked = await guest.raw("GET", `/api/dashboards/${permalink}`, {
      headers: { "x-authorization": "right-one" },
    });
    expect(blocked.statusCode).toBe(429);
  });
});

describe("rate limits and proxies", () => {
  it("X-Forwarded-For from a client does not reset the per-address limit (no proxy trusted by default)", async () => {
    const env = await startTestEnv("sqlite", { RATE_LIMIT_AUTH_MAX: "3" });
    try {
      const client = env.client();
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const response = await client.raw("POST", "/login", {
          body: { email: "nobody@example.com", password: "whatever-pass" },
          headers: { "x-forwarded-for": `203.0.113.${i}` },
        });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([422, 422, 422, 429, 429]);
    } finally {
      await env.close();
    }
  });
});
