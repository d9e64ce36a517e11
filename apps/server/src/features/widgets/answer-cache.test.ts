import { ZWidgetDataResponse } from "@app/core";
import { expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { describeEachDb, sharedTemplateWidget, type TestClient } from "../../../test/harness";
import { createDemoSource, dataRequest, demoInstance } from "./test-helpers";

/** Sends a JSON body as this exact text (spacing and key order kept), as the SPA would. */
function postText(client: TestClient, url: string, text: string, headers: Record<string, string> = {}) {
  return client.raw("POST", url, {
    payload: text,
    headers: {
      "content-type": "application/json",
      "x-requested-with": "XMLHttpRequest",
      "x-identification": client.identification,
      ...headers,
    },
  });
}

describeEachDb("widget answer cache: serialised answers", (env) => {
  it("a hit sends the first answer's bytes, whatever the spacing or key order of the same request", async () => {
    const { client: owner } = await buildOwner(env());
    const sourceId = await createDemoSource(owner);
    const request = dataRequest([demoInstance(sourceId, { metrics: ["sessions", "revenue"] })], {
      startDate: "2025-03-01",
      endDate: "2025-03-31",
      comparison: true,
    });
    const text = JSON.stringify(request);
    const first = await postText(owner, "/api/widgets/data", text);
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-type"]).toBe("application/json; charset=utf-8");
    // The bytes are what the route's response contract lets through, nothing more.
    expect(ZWidgetDataResponse.parse(first.json())).toEqual(first.json());
    expect(first.json().data.previous).not.toBeNull();

    const again = await postText(owner, "/api/widgets/data", text);
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(again.headers["content-length"]).toBe(String(first.rawPayload.length));
    const spaced = await postText(owner, "/api/widgets/data", JSON.stringify(request, null, 2));
    expect(spaced.rawPayload.equals(first.rawPayload)).toBe(true);
    const reordered = Object.fromEntries(Object.entries(request).reverse());
    const otherOrder = await postText(owner, "/api/widgets/data", JSON.stringify(reordered));
    expect(otherOrder.rawPayload.equals(first.rawPayload)).toBe(true);
    // The exact text once more, after the other spellings were kept too.
    expect((await postText(owner, "/api/widgets/data", text)).rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it("another company sending the same text never gets the cached bytes", async () => {
    const { client: alpha } = await buildOwner(env());
    const sourceId = await createDemoSource(alpha);
    const text = JSON.stringify(dataRequest([demoInstance(sourceId)]));
    const own = await postText(alpha, "/api/widgets/data", text);
    expect(own.statusCode).toBe(200);
    expect((await postText(alpha, "/api/widgets/data", text)).statusCode).toBe(200);

    const { client: beta } = await buildOwner(env());
    const foreign = await postText(beta, "/api/widgets/data", text);
    // Alpha's source does not exist for Beta: the request is looked at for Beta as if nothing were cached.
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('"rows"');
  });

  it("a hit still needs the session and the page's identification", async () => {
    const { client: owner } = await buildOwner(env());
    const sourceId = await createDemoSource(owner);
    const text = JSON.stringify(dataRequest([demoInstance(sourceId)]));
    expect((await postText(owner, "/api/widgets/data", text)).statusCode).toBe(200);

    expect((await postText(owner, "/api/widgets/data", text, { "x-identification": "forged" })).statusCode).toBe(419);
    const stranger = env().client();
    await stranger.pageData();
    expect((await postText(stranger, "/api/widgets/data", text)).statusCode).toBe(401);
    // Signed out: the same client, the same text, no answer.
    await owner.raw("POST", "/logout", { headers: { "x-requested-with": "XMLHttpRequest" } });
    await owner.pageData();
    expect((await postText(owner, "/api/widgets/data", text)).statusCode).toBe(401);
  });

  it("bodies the text cache never saw are checked as every JSON body is", async () => {
    const { client: owner } = await buildOwner(env());
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    expect((await postText(owner, "/api/widgets/data", deep)).statusCode).toBe(400);
    expect((await postText(owner, "/api/widgets/data", '{"instances": [')).statusCode).toBe(400);
    expect((await postText(owner, "/api/widgets/data", '{"a": "\\u0000"}')).statusCode).toBe(400);
    expect((await postText(owner, "/api/widgets/data", '{"__proto__": {"x": 1}}')).statusCode).toBe(400);
    const empty = await postText(owner, "/api/widgets/data", "null");
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json().errors)).toContain("instances");
  });

  it("a shared dashboard's widget follows a save and an archive at once, though its list is kept parsed", async () => {
    const { client: owner } = await buildOwner(env());
    const { dashboard, widget, url, range } = await sharedTemplateWidget(owner);

    const guest = env().client();
    const first = await guest.api("POST", url, range);
    expect(first.statusCode).toBe(200);
    expect((await guest.api("POST", url, range)).rawPayload.equals(first.rawPayload)).toBe(true);

    // The owner renames the instance's prefix: the public answer follows the saved widgets.
    const renamed = dashboard.widgets.map((w: typeof widget) =>
      w.id === widget.id
        ? { ...w, instances: w.instances.map((i: { prefix: string }) => ({ ...i, prefix: "zz" })) }
        : w,
    );
    const saved = await owner.apiMultipart("POST", `/api/dashboards/${dashboard.id}`, {
      widgets: JSON.stringify(renamed),
    });
    expect(saved.statusCode).toBe(200);
    const after = await guest.api("POST", url, range);
    expect(after.statusCode).toBe(200);
    const keys = after.json().data.current.metrics.map((m: { key: string }) => m.key);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key.startsWith("zz.") || !key.includes(".")).toBe(true);
    expect(after.rawPayload.equals(first.rawPayload)).toBe(false);

    await owner.api("DELETE", `/api/dashboards/${dashboard.id}/archive`);
    expect((await guest.api("POST", url, range)).statusCode).toBe(404);
  });
});
