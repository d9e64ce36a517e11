import { buildInstance, buildPassiveWidget, buildWidget } from "@app/core/widgets/test-fixtures";
import { expect, it } from "vitest";
import { buildMember, buildOwner } from "../../../test/factories";
import { describeEachDb, PNG_1X1, type TestClient } from "../../../test/harness";

const passive = (id: string, order: number) =>
  buildPassiveWidget({ id, order, hash: id, title: `Note ${id}`, inputs: { description: "<p>Hello client</p>" } });

async function create(client: TestClient, name: string): Promise<{ id: string; permalink: string }> {
  const response = await client.api("POST", "/api/dashboards", { name });
  expect(response.statusCode).toBe(200);
  const permalink = response.json().data.permalink;
  const shown = await client.api("GET", `/api/dashboards/${permalink}`);
  return { id: shown.json().data.id, permalink };
}

describeEachDb("dashboards API", (env) => {
  it("creates, lists with search / active filter / pagination meta, archives, restores and deletes", async () => {
    const { client: owner } = await buildOwner(env());
    const a = await create(owner, "Acme SEO");
    await create(owner, "Beta Ads");
    await create(owner, "Acme Social");
    await create(owner, "Growth_50% plan");
    const literal = await owner.api("GET", `/api/dashboards?search=${encodeURIComponent("growth_50%")}`);
    expect(literal.json().data.map((d: { name: string }) => d.name)).toEqual(["Growth_50% plan"]);
    const wildcard = await owner.api("GET", `/api/dashboards?search=${encodeURIComponent("acme_s")}`);
    expect(wildcard.json().data).toEqual([]);
    const search = await owner.api("GET", "/api/dashboards?search=acme");
    expect(
      search
        .json()
        .data.map((d: { name: string }) => d.name)
        .sort(),
    ).toEqual(["Acme SEO", "Acme Social"]);
    const paged = await owner.api("GET", "/api/dashboards?perPage=2&page=2");
    expect(paged.json().meta).toEqual({ currentPage: 2, perPage: 2, total: 4, lastPage: 2 });
    expect(paged.json().data).toHaveLength(2);

    expect((await owner.api("DELETE", `/api/dashboards/${a.id}/archive`)).statusCode).toBe(204);
    const archived = await owner.api("GET", "/api/dashboards?active=false");
    expect(archived.json().data.map((d: { name: string }) => d.name)).toEqual(["Acme SEO"]);
    expect((await owner.api("GET", "/api/dashboards?active=true")).json().data).toHaveLength(3);
    expect((await owner.api("PUT", `/api/dashboards/${a.id}/restore`)).statusCode).toBe(204);
    expect((await owner.api("GET", "/api/dashboards?active=true")).json().data).toHaveLength(4);
    expect((await owner.api("DELETE", `/api/dashboards/${a.id}`)).statusCode).toBe(204);
    expect((await owner.api("GET", `/api/dashboards/${a.permalink}`)).statusCode).toBe(404);
  });

  it("refuses a dashboard beyond services.dashboards + bonusDashboards with message 121", async () => {
    const { client: owner } = await buildOwner(env(), { company: { services_dashboards: 2 } });
    await create(owner, "One");
    const two = await create(owner, "Two");
    const third = await owner.api("POST", "/api/dashboards", { name: "Three" });
    expect(third.statusCode).toBe(422);
    expect(third.json().message).toBe("All Dashboards Used Up");
    expect((await owner.api("POST", `/api/dashboards/${two.id}/clone`)).statusCode).toBe(422);
    expect((await owner.api("GET", "/api/company")).json().data).toMatchObject({
      dashboardsCount: 2,
      canCreateDashboard: false,
    });
    // Archiving frees a place.
    await owner.api("DELETE", `/api/dashboards/${two.id}/archive`);
    expect((await owner.api("POST", "/api/dashboards", { name: "Three" })).statusCode).toBe(200);
  });

  it("creates from a template: widgets point at the company's Demo source (connected if needed)", async () => {
    const { client: owner } = await buildOwner(env());
    const response = await owner.api("POST", "/api/dashboards", { name: "Overview", template: "website-overview" });
    expect(response.statusCode).toBe(200);
    const dashboard = (await owner.api("GET", `/api/dashboards/${response.json().data.permalink}`)).json().data;
    expect(dashboard.widgets.length).toBeGreaterThan(2);
    const sources = (await owner.api("GET", "/api/sources")).json().data;
    expect(sources.map((s: { name: string }) => s.name)).toEqual(["demo"]);
    for (const widget of dashboard.widgets) {
      if (widget.nature === "interactive") expect(widget.instances[0].sourceId).toBe(sources[0].id);
    }
  });

  it("page data raises banner 125 while a company source is invalid", async () => {
    const { client: owner, company } = await buildOwner(env());
    await owner.api("POST", "/api/sources", { name: "demo" });
    expect((await owner.pageData()).messages.map((m: { code: number }) => m.code)).toEqual([120]);
    await env().ctx.db.updateTable("sources").set({ invalid: 1 }).where("company_id", "=", company.id).execute();
    expect((await owner.pageData()).messages.map((m: { code: number }) => m.code)).toEqual([120, 125]);
  });

  it("validates creation input per field", async () => {
    const { client: owner } = await buildOwner(env());
    const response = await owner.api("POST", "/api/dashboards", { name: "" });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.name).toEqual(["The name field is required."]);
    const template = await owner.api("POST", "/api/dashboards", { name: "X", template: "nope" });
    expect(template.json().errors.template).toBeDefined();
  });

  it("saves every multipart field and returns the styles; reload shows them", async () => {
    const { client: owner } = await buildOwner(env());
    const { id, permalink } = await create(owner, "Client report");
    const save = await owner.apiMultipart(
      "POST",
      `/api/dashboards/${id}`,
      {
        name: "Client report 2026",
        styles: JSON.stringify({ backgroundColor: "#ffffff", color: "#1c7ed6", theme: "light" }),
        widgets: JSON.stringify([passive("w1", 0), passive("w2", 1)]),
        hidden_date_selector: "1",
        footer: "Prepared by Acme",
        range_type: "custom",
        start: "2026-10-01",
        end: "2026-10-31",
        compare_start: "2025-10-01",
        compare_end: "2025-10-31",
        category: "files",
      },
      { logo_image: { filename: "logo.png", type: "image/png", data: PNG_1X1 } },
    );
    expect(save.statusCode).toBe(200);
    const styles = save.json().data.styles;
    expect(styles).toMatchObject({ backgroundColor: "#ffffff", color: "#1c7ed6", theme: "light" });
    expect(styles.logoImage).toMatch(/^\/files\//);
    const shown = (await owner.api("GET", `/api/dashboards/${permalink}?timezone=Europe/Paris`)).json().data;
    expect(shown).toMatchObject({
      name: "Client report 2026",
      hiddenDateSelector: true,
      footer: "Prepared by Acme",
      rangeType: "custom",
      startDate: "2026-10-01",
      endDate: "2026-10-31",
      compareStartDate: "2025-10-01",
      compareEndDate: "2025-10-31",
      passwordProtected: false,
      locked: null,
    });
    expect(shown.widgets.map((w: { id: string }) => w.id)).toEqual(["w1", "w2"]);
  });

  it("refuses a style it does not know (a misspelt name is a 422 naming it), keeping the saved ones", async () => {
    const { client: owner } = await buildOwner(env());
    const { id, permalink } = await create(owner, "Client report");
    const saved = await owner.apiMultipart("POST", `/api/dashboards/${id}`, {
      styles: JSON.stringify({ backgroundColor: "#101820" }),
    });
    expect(saved.statusCode).toBe(200);
    const misspelt = await owner.apiMultipart("POST", `/api/dashboards/${id}`, {
      styles: JSON.stringify({ bakgroundColor: "#ffffff", color: "#1c7ed6" }),
    });
    expect(misspelt.statusCode).toBe(422);
    expect(misspelt.json().errors).toEqual({ "styles.bakgroundColor": ["The bakgroundColor field is not allowed."] });
    const shown = (await owner.api("GET", `/api/dashboards/${permalink}`)).json().data;
    expect(shown.styles).toMatchObject({ backgroundColor: "#101820", color: null });
  });

  it("rejects a bad save with per-field errors and keeps what was saved", async () => {
    const { client: owner } = await buildOwner(env());
    const { id, permalink } = await create(owner, "Keep me");
    const bad = await owner.apiMultipart("POST", `/api/dashboards/${id}`, {
      name: "",
      widgets: "{not json",
      start: "2026-13-45",
      end: "2026-10-01",
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(["name", "start", "widgets"]);
    const badSize = await owner.apiMultipart("POST", `/api/dashboards/${id}`, {
      widgets: JSON.stringify([{ ...passive("w1", 0), width: 5 }]),
    });
    expect(badSize.statusCode).toBe(422);
    const badImage = await owner.apiMultipart(
      "POST",
      `/api/dashboards/${id}`,
      { name: "Changed" },
      {
        logo_image: { filename: "x.png", type: "image/png", data: Buffer.from("text") },
      },
    );
    expect(badImage.json().errors).toEqual({ logo_image: ["Invalid file type"] });
    expect((await owner.api("GET", `/api/dashboards/${permalink}`)).json().data.name).toBe("Keep me");
  });

  it("refuses widgets pointing at another company's source id", async () => {
    const { client: owner } = await buildOwner(env());
    const { id } = await create(owner, "Sources");
    const widget = buildWidget({ instances: [buildInstance({ type: "demo.analytics", sourceId: "not-ours" })] });
    const response = await owner.apiMultipart("POST", `/api/dashboards/${id}`, { widgets: JSON.stringify([widget]) });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.widgets).toBeDefined();
  });

  it("clones with widgets, refreshes the permalink, and sets a password public viewers must give", async () => {
    const { client: owner } = await buildOwner(env());
    const { id, permalink } = await create(owner, "Original");
    await owner.apiMultipart("POST", `/api/dashboards/${id}`, { widgets: JSON.stringify([passive("w1", 0)]) });
    const clone = await owner.api("POST", `/api/dashboards/${id}/clone`);
    const cloned = (await owner.api("GET", `/api/dashboards/${clone.json().data.permalink}`)).json().data;
    expect(cloned.name).toBe("Original (copy)");
    expect(cloned.widgets).toHaveLength(1);

    const refreshed = await owner.api("PUT", `/api/dashboards/${id}`, { category: "refresh_permalink" });
    const newPermalink = refreshed.json().data.permalink;
    expect(newPermalink).not.toBe(permalink);
    expect((await owner.api("GET", `/api/dashboards/${permalink}`)).statusCode).toBe(404);

    const guest = env().client();
    const open = await guest.raw("GET", `/api/dashboards/${newPermalink}`);
    expect(open.statusCode).toBe(200);
    expect(open.headers["x-public"]).toBe("1");
    const pw = await owner.api("PUT", `/api/dashboards/${id}`, { category: "new_password", password: "client-secret" });
    expect(pw.json().data.passwordProtected).toBe(true);
    expect((await guest.raw("GET", `/api/dashboards/${newPermalink}`)).statusCode).toBe(422);
    expect(
      (await guest.raw("GET", `/api/dashboards/${newPermalink}`, { headers: { "x-authorization": "wrong" } }))
        .statusCode,
    ).toBe(422);
    const authorised = await guest.raw("GET", `/api/dashboards/${newPermalink}`, {
      headers: { "x-authorization": "client-secret" },
    });
    expect(authorised.statusCode).toBe(200);
    expect(authorised.json().data.name).toBe("Original");
  });

  it("edit lock: a second user cannot switch edit mode on or save while the first holds it", async () => {
    const { client: owner, user, company } = await buildOwner(env());
    const { client: member } = await buildMember(env(), { company });
    const { id, permalink } = await create(owner, "Locked");
    const lock = await owner.api("PUT", `/api/dashboards/${id}`, { type: "lock" });
    expect(lock.json().data.locked).toBe(user.id);
    expect((await member.api("GET", `/api/dashboards/${permalink}`)).json().data.locked).toBe(user.id);
    const refused = await member.api("PUT", `/api/dashboards/${id}`, { type: "lock" });
    expect(refused.statusCode).toBe(409);
    expect((await member.apiMultipart("POST", `/api/dashboards/${id}`, { name: "Member edit" })).statusCode).toBe(403);
    // The holder may refresh (heartbeat) the lock and save.
    expect((await owner.api("PUT", `/api/dashboards/${id}`, { type: "lock" })).statusCode).toBe(200);
    expect((await owner.apiMultipart("POST", `/api/dashboards/${id}`, { name: "Owner edit" })).statusCode).toBe(200);
    // Released: the other user gets it.
    await owner.api("PUT", `/api/dashboards/${id}`, { type: "unlock" });
    expect((await member.api("PUT", `/api/dashboards/${id}`, { type: "lock" })).statusCode).toBe(200);
  });

  it("a stale lock (no heartbeat) is taken over", async () => {
    const { client: owner, company } = await buildOwner(env());
    const { client: member } = await buildMember(env(), { company });
    const { id } = await create(owner, "Stale");
    await owner.api("PUT", `/api/dashboards/${id}`, { type: "lock" });
    await env()
      .ctx.db.updateTable("dashboards")
      .set({ locked_at: new Date(Date.now() - 120_000).toISOString() })
      .where("id", "=", id)
      .execute();
    expect((await member.api("PUT", `/api/dashboards/${id}`, { type: "lock" })).statusCode).toBe(200);
  });

  it("public viewers get a saved widget's data through the permalink, password protected when set", async () => {
    const { client: owner } = await buildOwner(env());
    const created = await owner.api("POST", "/api/dashboards", { name: "Shared", template: "website-overview" });
    const permalink = created.json().data.permalink;
    const dashboard = (await owner.api("GET", `/api/dashboards/${permalink}`)).json().data;
    const widget = dashboard.widgets.find((w: { nature: string }) => w.nature === "interactive");
    const range = { startDate: "2026-10-01", endDate: "2026-10-31", timezone: "UTC" };
    const url = `/api/dashboards/${permalink}/widgets/${widget.id}/data`;

    const guest = env().client();
    const open = await guest.api("POST", url, range);
    expect(open.statusCode).toBe(200);
    const own = await owner.api("POST", "/api/widgets/data", { ...range, instances: widget.instances });
    expect(open.json()).toEqual(own.json());
    expect(open.json().data.previous).not.toBeNull();

    expect((await guest.api("POST", `/api/dashboards/${permalink}/widgets/nope/data`, range)).statusCode).toBe(404);
    expect((await guest.api("POST", url, { ...range, startDate: "nope" })).statusCode).toBe(422);

    await owner.api("PUT", `/api/dashboards/${dashboard.id}`, { category: "new_password", password: "let-me-in" });
    expect((await guest.api("POST", url, range)).statusCode).toBe(422);
    expect((await guest.api("POST", url, range, { "x-authorization": "wrong" })).statusCode).toBe(422);
    expect((await guest.api("POST", url, range, { "x-authorization": "let-me-in" })).statusCode).toBe(200);
    // Archived dashboards are not shown to the public.
    await owner.api("DELETE", `/api/dashboards/${dashboard.id}/archive`);
    expect((await guest.api("POST", url, range, { "x-authorization": "let-me-in" })).statusCode).toBe(404);
  });

  it("another company's user gets 404 and no data on every dashboard route", async () => {
    const { client: owner } = await buildOwner(env());
    const { id, permalink } = await create(owner, "Private Name");
    await owner.api("PUT", `/api/dashboards/${id}`, { category: "new_password", password: "secret-pw" });
    const { client: other } = await buildOwner(env());
    expect((await other.api("GET", "/api/dashboards")).json().data).toEqual([]);
    const attempts = [
      await other.api("POST", `/api/dashboards/${id}/clone`),
      await other.api("PUT", `/api/dashboards/${id}/restore`),
      await other.api("DELETE", `/api/dashboards/${id}/archive`),
      await other.api("PUT", `/api/dashboards/${id}`, { type: "lock" }),
      await other.api("PUT", `/api/dashboards/${id}`, { category: "refresh_permalink" }),
      await other.apiMultipart("POST", `/api/dashboards/${id}`, { name: "Hacked" }),
      await other.api("DELETE", `/api/dashboards/${id}`),
    ];
    for (const response of attempts) {
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain("Private Name");
    }
    // By permalink another company is only a public viewer, held by the password.
    const viewed = await other.api("GET", `/api/dashboards/${permalink}`);
    expect(viewed.statusCode).toBe(422);
    expect(viewed.body).not.toContain("Private Name");
    expect((await owner.api("GET", `/api/dashboards/${permalink}`)).json().data.name).toBe("Private Name");
  });
});
