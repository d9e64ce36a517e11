import path from "node:path";
import { ZWidget } from "@app/core";
import { expect, it } from "vitest";
import { connectorWith } from "../../../test/connectors";
import { buildMember, buildOwner } from "../../../test/factories";
import { describeEachDb } from "../../../test/harness";
import { until } from "../../../test/wait";
import { CONNECTORS, ProviderError } from "../../connectors";
import { createDiskStorage } from "../../infra/storage";
import { filesService } from "../files/service";
import { createDemoSource, dataRequest, uploadCsv } from "../widgets/test-helpers";
import { hasInvalidSource, sourcesService } from "./service";
import { templateResolver } from "./template-instances";

const CSV = "Date,Sessions,Revenue\n2025-03-01,10,$5.00\n2025-03-02,20,$7.50\n";

describeEachDb("sources API", (env) => {
  it("connects a Demo source, lists it with its sites, and deletes it", async () => {
    const { client: owner } = await buildOwner(env());
    expect((await owner.api("GET", "/api/sources")).json()).toEqual({ data: [] });
    const created = await owner.api("POST", "/api/sources", { name: "demo" });
    expect(created.statusCode).toBe(200);
    const source = created.json().data;
    expect(source).toMatchObject({ name: "demo", account: null, invalid: false });
    expect(source.properties.map((p: { value: string }) => p.value)).toEqual([
      "acme-software",
      "northwind-shop",
      "bluebird-studio",
      "harbor-outfitters",
    ]);
    const list = await owner.api("GET", "/api/sources");
    expect(list.json().data).toEqual([source]);
    expect((await owner.api("GET", `/api/sources/${source.id}/properties`)).json().data).toEqual(source.properties);
    expect((await owner.api("DELETE", `/api/sources/${source.id}`)).statusCode).toBe(204);
    expect((await owner.api("DELETE", `/api/sources/${source.id}`)).statusCode).toBe(404);
    expect((await owner.api("GET", "/api/sources")).json().data).toEqual([]);
  });

  it("refuses unknown and unavailable connectors with a 422 on name", async () => {
    const { client: owner } = await buildOwner(env());
    const missing = await owner.api("POST", "/api/sources", {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.name).toEqual(["The name field is required."]);
    const unknown = await owner.api("POST", "/api/sources", { name: "myspace" });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({ name: ["The selected connector is invalid."] });
    // Every catalogue connector can be connected here, or says which of the server's variables it lacks.
    const catalogue = (await owner.api("GET", "/api/configs/connectors")).json().data as {
      key: string;
      available: boolean;
      note: string | null;
    }[];
    expect(catalogue).toHaveLength(24);
    for (const entry of catalogue.filter((item) => !item.available)) {
      expect(entry.note, entry.key).toMatch(/^Not configured on this server \(set [A-Z_]+( and [A-Z_]+)*\)\.$/);
    }
    expect((await owner.api("GET", "/api/sources")).json().data).toEqual([]);
  });

  it("creates a CSV source from a multipart upload and adds another file with PUT", async () => {
    const { client: owner } = await buildOwner(env());
    const created = await uploadCsv(owner, CSV, "march.csv");
    expect(created.statusCode).toBe(200);
    const source = created.json().data;
    expect(source).toMatchObject({ name: "csv", invalid: false, properties: [{ label: "march.csv" }] });
    const added = await owner.apiMultipart(
      "PUT",
      `/api/sources/${source.id}`,
      {},
      { file: { filename: "april.csv", type: "text/csv", data: Buffer.from(CSV) } },
    );
    expect(added.statusCode).toBe(200);
    expect(added.json().data.properties.map((p: { label: string }) => p.label)).toEqual(["march.csv", "april.csv"]);
    const fileId = source.properties[0].value;
    const form = `property=${fileId}&sheet=sheet1&has_header=true&has_footer=false&has_labels=false&uses_date_range=true`;
    const columns = await owner.api("GET", `/api/sources/${source.id}/columns?${form}`);
    expect(columns.statusCode).toBe(200);
    expect(columns.json().data).toEqual([
      { value: "sessions", label: "Sessions" },
      { value: "revenue", label: "Revenue" },
    ]);
    expect((await owner.api("GET", `/api/sources/${source.id}/dimensions?${form}`)).json().data).toEqual([
      { value: "date", label: "Date" },
    ]);
    expect((await owner.api("GET", `/api/sources/${source.id}/sheets?${form}`)).json().data).toEqual([
      { value: "sheet1", label: "Sheet 1" },
    ]);
    expect((await owner.api("GET", `/api/sources/${source.id}/nonsense`)).statusCode).toBe(404);
    expect((await owner.api("DELETE", `/api/sources/${source.id}`)).statusCode).toBe(204);
  });

  it("rejects CSV uploads that are missing, binary or malformed, naming the line", async () => {
    const { client: owner } = await buildOwner(env());
    const none = await owner.apiMultipart("POST", "/api/sources", { name: "csv" });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors).toEqual({ file: ["The file field is required."] });
    const binary = await owner.apiMultipart(
      "POST",
      "/api/sources",
      { name: "csv" },
      { file: { filename: "x.csv", type: "text/csv", data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]) } },
    );
    expect(binary.json().errors).toEqual({ file: ["Invalid file type"] });
    const unclosed = await uploadCsv(owner, 'a,b\n1,2\n3,4\n5,6\n7,8\n9,10\n"11,12\n');
    expect(unclosed.statusCode).toBe(422);
    expect(unclosed.json().errors).toEqual({ file: ["Line 7: unclosed quote"] });
    const ragged = await uploadCsv(owner, "a,b,c,d,e\n1,2,3,4,5\n1,2,3,4,5\n1,2,3\n");
    expect(ragged.json().errors).toEqual({ file: ["Line 4: expected 5 columns, found 3"] });
    expect((await owner.api("GET", "/api/sources")).json().data).toEqual([]);
  });

  it("a failing source is marked invalid (banner 125 check) until it is re-authorised", async () => {
    const { client: owner, company } = await buildOwner(env());
    const source = (await uploadCsv(owner, CSV)).json().data;
    expect(await hasInvalidSource(env().ctx.db, company.id)).toBe(false);
    // Losing the stored file is a failure of the source, not of the form.
    await env().ctx.db.deleteFrom("files").where("company_id", "=", company.id).execute();
    const form = `property=${source.properties[0].value}&has_header=1&uses_date_range=1`;
    const failed = await owner.api("GET", `/api/sources/${source.id}/columns?${form}`);
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({ code: "source_error", message: "Data Error" });
    expect((await owner.api("GET", "/api/sources")).json().data[0].invalid).toBe(true);
    expect(await hasInvalidSource(env().ctx.db, company.id)).toBe(true);
    const reauthorised = await owner.api("PUT", `/api/sources/${source.id}`, {});
    expect(reauthorised.json().data.invalid).toBe(false);
    expect(await hasInvalidSource(env().ctx.db, company.id)).toBe(false);
  });

  it("a provider down, throttling or out of quota leaves the source valid; only a lost grant invalidates it, announced once", async () => {
    const { client: owner, company } = await buildOwner(env());
    const id = await createDemoSource(owner);
    const sources = env().services.get("sources");
    const announced: unknown[] = [];
    const stop = env().ctx.events.subscribe("realtime.broadcast", (message) => {
      if (message.event === "CompanySourceUpdated") announced.push(message.data);
    });
    try {
      const failWith = (error: Error) => sources.guard(company.id, id, async () => Promise.reject(error));
      for (const kind of ["server", "rate", "quota"] as const) {
        const error = await failWith(new ProviderError("ga4", kind, "HTTP 503")).catch((caught) => caught);
        expect(error).toBeInstanceOf(ProviderError);
        expect(error.status).toBe(502);
        expect(error.body()).toMatchObject({ code: "source_error", message: "Data Error", kind });
      }
      // Our own bug is not the customer's grant either.
      await expect(failWith(new TypeError("undefined is not a function"))).rejects.toMatchObject({
        code: "source_error",
      });
      expect(await hasInvalidSource(env().ctx.db, company.id)).toBe(false);
      // The widget's inputs wrong for this account: a 422 with the provider's words, the source still valid.
      const input = await failWith(
        new ProviderError("ga4", "input", "400: Field sessionz is not a valid metric.", { field: "metrics" }),
      ).catch((caught) => caught);
      expect(input.body()).toMatchObject({
        code: "validation",
        errors: { metrics: ["The provider refused these settings: 400: Field sessionz is not a valid metric."] },
      });
      expect(await hasInvalidSource(env().ctx.db, company.id)).toBe(false);
      expect(announced).toHaveLength(0);
      // A revoked grant: invalid (banner 125) and announced to the company's open pages, once.
      const revoked = new ProviderError("ga4", "auth", "401: UNAUTHENTICATED");
      await expect(failWith(revoked)).rejects.toMatchObject({ code: "source_error" });
      await expect(failWith(revoked)).rejects.toMatchObject({ code: "source_error" });
      expect(await hasInvalidSource(env().ctx.db, company.id)).toBe(true);
      await until(async () => announced.length > 0, 2000);
      expect(announced).toHaveLength(1);
      expect(announced[0]).toMatchObject({ id, sources: [{ id, invalid: true }] });
    } finally {
      stop();
    }
  });

  it("lists a Demo type's metrics and dimensions as remote options", async () => {
    const { client: owner } = await buildOwner(env());
    const id = await createDemoSource(owner);
    const metrics = await owner.api("GET", `/api/sources/${id}/metrics?type=demo.search&property=acme-software`);
    expect(metrics.json().data.map((o: { value: string }) => o.value)).toEqual([
      "clicks",
      "impressions",
      "ctr",
      "position",
    ]);
    const dimensions = await owner.api("GET", `/api/sources/${id}/dimensions?type=demo.social`);
    expect(dimensions.json().data).toEqual([
      { value: "date", label: "Date" },
      { value: "channel", label: "Network" },
    ]);
    const noType = await owner.api("GET", `/api/sources/${id}/metrics`);
    expect(noType.statusCode).toBe(422);
    expect(noType.json().errors).toEqual({ type: ["The selected widget type is invalid."] });
  });

  it("instantiates templates on the company's Demo source, whose widgets answer data", async () => {
    const { client: owner, company } = await buildOwner(env());
    const sources = sourcesService(
      env().ctx,
      filesService(env().ctx, createDiskStorage(path.join(env().dataDir, "files"))),
    );
    const resolve = templateResolver(sources);
    expect(await resolve(company.id, "no-such-template")).toBeNull();
    const widgets = await resolve(company.id, "website-overview");
    const again = await resolve(company.id, "seo");
    const list = (await owner.api("GET", "/api/sources")).json().data;
    expect(list).toHaveLength(1);
    for (const widget of [...(widgets ?? []), ...(again ?? [])]) {
      expect(ZWidget.safeParse(widget).success).toBe(true);
      if (widget.nature !== "interactive") continue;
      expect(widget.instances[0].sourceId).toBe(list[0].id);
      const data = await owner.api("POST", "/api/widgets/data", dataRequest(widget.instances));
      expect(data.statusCode).toBe(200);
    }
  });

  it("team members of the company use its sources", async () => {
    const { client: owner, company } = await buildOwner(env());
    const id = await createDemoSource(owner);
    const { client: member } = await buildMember(env(), { company });
    expect((await member.api("GET", "/api/sources")).json().data.map((s: { id: string }) => s.id)).toEqual([id]);
  });
});

describeEachDb("configs API", (env) => {
  it("lists the connector catalogue in display order with honest availability", async () => {
    const { client: owner } = await buildOwner(env());
    const catalogue = (await owner.api("GET", "/api/configs/connectors")).json().data;
    expect(catalogue.map((c: { displayName: string }) => c.displayName)).toEqual([
      "Demo data",
      "Google Analytics",
      "Search Console",
      "Google Ads",
      "Google My Business",
      "Facebook Ads",
      "Facebook Social",
      "Instagram",
      "Google Sheets",
      "CSV upload",
      "Ahrefs V3",
      "SEMrush",
      "RankRanger",
      "SerpStat",
      "SERanking",
      "SalesFlare",
      "WooCommerce",
      "LinkedIn Ads",
      "LinkedIn Social",
      "Base.me",
      "AccuRanker",
      "Mailchimp",
      "TikTok",
      "Klaviyo [beta]",
    ]);
    const byKey = Object.fromEntries(catalogue.map((c: { key: string }) => [c.key, c]));
    expect(byKey.demo).toMatchObject({ order: 0, authKind: "none", available: true });
    expect(byKey.csv).toMatchObject({ authKind: "upload", available: true });
    // Every connector as its folder declares it (each folder's own test pins its order, sign-in and note).
    for (const connector of CONNECTORS) {
      expect(byKey[connector.key]).toMatchObject({ order: connector.order, authKind: connector.authKind });
    }
    // This test server has no provider settings: an OAuth connector is listed, unavailable.
    expect(byKey[connectorWith("oauth").key]).toMatchObject({ authKind: "oauth2", available: false });
  });

  it("answers widget type configurations by connector or type key", async () => {
    const { client: owner } = await buildOwner(env());
    const demo = (await owner.api("GET", "/api/configs/widgets/demo")).json().data;
    expect(demo.map((t: { type: string }) => t.type)).toEqual([
      "demo.analytics",
      "demo.search",
      "demo.ads",
      "demo.social",
      "demo.ecommerce",
      "demo.realtime",
    ]);
    const csv = (await owner.api("GET", "/api/configs/widgets/csv.sheet")).json().data[0];
    expect(csv.params.map((p: { key: string; required: boolean }) => `${p.key}${p.required ? "*" : ""}`)).toEqual([
      "property*",
      "sheet*",
      "has_header*",
      "has_footer*",
      "has_labels*",
      "uses_date_range*",
      "dimension",
      "metrics*",
    ]);
    // The yes/no questions start answered as a common file reads.
    expect(Object.fromEntries(csv.params.map((p: { key: string; default?: unknown }) => [p.key, p.default]))).toEqual({
      property: undefined,
      sheet: undefined,
      has_header: true,
      has_footer: false,
      has_labels: true,
      uses_date_range: false,
      dimension: undefined,
      metrics: undefined,
    });
    // A parameter shown only under a condition carries it (a connector's own is pinned in its folder).
    const conditional = CONNECTORS.flatMap((connector) =>
      connector.widgetTypes.flatMap((type) =>
        type.params.filter((param) => param.unless).map((param) => ({ connector, type, param })),
      ),
    )[0];
    const served = (await owner.api("GET", `/api/configs/widgets/${conditional.connector.key}`))
      .json()
      .data.find((type: { type: string }) => type.type === conditional.type.type);
    expect(served.params.find((p: { key: string }) => p.key === conditional.param.key).unless).toBe(
      conditional.param.unless,
    );
    expect((await owner.api("GET", "/api/configs/widgets/nope")).statusCode).toBe(404);
  });

  it("serves Demo templates by key", async () => {
    const { client: owner } = await buildOwner(env());
    const templates = (await owner.api("GET", "/api/configs/templates")).json().data;
    expect(Object.keys(templates)).toEqual(["website-overview", "seo", "paid-ads"]);
    for (const template of Object.values(templates) as Array<{
      widgets: Array<{ nature: string; instances: Array<{ type: string }> }>;
    }>) {
      expect(template.widgets.length).toBeGreaterThan(2);
      for (const widget of template.widgets) {
        expect(widget.nature).toBe("interactive");
        expect(widget.instances[0].type).toMatch(/^demo\./);
      }
    }
  });

  it("needs a session", async () => {
    const guest = env().client();
    await guest.pageData();
    expect((await guest.raw("GET", "/api/configs/connectors")).statusCode).toBe(401);
    expect((await guest.raw("GET", "/api/sources")).statusCode).toBe(401);
  });
});
