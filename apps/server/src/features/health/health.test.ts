import { expect, it } from "vitest";
import { describeEachDb } from "../../../test/harness";
import { buildApp } from "../../app";
import { openDatabase } from "../../infra/db";

describeEachDb("health and API docs", (env) => {
  it("GET /api/health answers ok while the database answers", async () => {
    const response = await env().client().raw("GET", "/api/health");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
  });

  it("serves the OpenAPI document generated from the contract at /api/docs", async () => {
    const client = env().client();
    const json = (await client.raw("GET", "/api/docs/json")).json();
    expect(json.openapi).toMatch(/^3\./);
    for (const path of [
      "/api/company",
      "/api/users",
      "/api/dashboards",
      "/api/widgets/data",
      "/api/sources",
      "/register",
    ]) {
      expect(Object.keys(json.paths)).toContain(path);
    }
    // Request and response shapes come from the zod contract.
    expect(JSON.stringify(json.paths["/api/company"].get.responses["200"])).toContain("canCreateDashboard");
    // A widget's goals: on the widget-data request and, computed, in its answer.
    const widgetData = json.paths["/api/widgets/data"].post;
    expect(JSON.stringify(widgetData.requestBody)).toContain('"period"');
    expect(JSON.stringify(widgetData.responses["200"])).toContain("onTrack");
    expect((await client.raw("GET", "/api/docs")).statusCode).toBeLessThan(400);
  });

  it("answers 503 when the database does not", async () => {
    // A database that does not answer: nothing listens on port 1.
    const handle = openDatabase({ databaseUrl: "postgres://nobody@127.0.0.1:1/none", sqlitePath: "" });
    const app = await buildApp({ ...env().ctx, db: handle.db }, { webDist: "/nonexistent" });
    const response = await app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: "unavailable" });
    await app.close();
    await handle.close();
  });
});
