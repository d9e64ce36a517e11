import { expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { describeEachDb, type TestClient } from "../../../test/harness";

async function create(client: TestClient, name: string): Promise<{ id: string; permalink: string }> {
  const response = await client.api("POST", "/api/dashboards", { name });
  const permalink = response.json().data.permalink;
  const shown = await client.api("GET", `/api/dashboards/${permalink}`);
  return { id: shown.json().data.id, permalink };
}

describeEachDb("a dashboard's language (docs/product.md §9, 'Report language')", (env) => {
  it("is English until set; the save takes a supported tag and the dashboard answers with it", async () => {
    const { client: owner } = await buildOwner(env());
    const { id, permalink } = await create(owner, "Kunde GmbH");
    expect((await owner.api("GET", `/api/dashboards/${permalink}`)).json().data.language).toBe("en");
    const saved = await owner.apiMultipart("POST", `/api/dashboards/${id}`, { language: "de" });
    expect(saved.statusCode).toBe(200);
    expect((await owner.api("GET", `/api/dashboards/${permalink}`)).json().data.language).toBe("de");
    // A save without the field keeps it.
    await owner.apiMultipart("POST", `/api/dashboards/${id}`, { name: "Kunde GmbH 2026" });
    expect((await owner.api("GET", `/api/dashboards/${permalink}`)).json().data).toMatchObject({
      name: "Kunde GmbH 2026",
      language: "de",
    });
  });

  it.each(["xx", "de-DE", "DE", "", "klingon"])(
    "refuses %j with a 422 on the field, and loses nothing",
    async (tag) => {
      const { client: owner } = await buildOwner(env());
      const { id, permalink } = await create(owner, "Client");
      await owner.apiMultipart("POST", `/api/dashboards/${id}`, { language: "fr" });
      const refused = await owner.apiMultipart("POST", `/api/dashboards/${id}`, { language: tag, name: "Renamed" });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toEqual({
        language: ["The language must be one of: en, de, fr, es, it, nl, pt, sl."],
      });
      expect((await owner.api("GET", `/api/dashboards/${permalink}`)).json().data).toMatchObject({
        name: "Client",
        language: "fr",
      });
    },
  );

  it("a clone reads in its original's language", async () => {
    const { client: owner } = await buildOwner(env());
    const { id } = await create(owner, "Cliente");
    await owner.apiMultipart("POST", `/api/dashboards/${id}`, { language: "es" });
    const cloned = await owner.api("POST", `/api/dashboards/${id}/clone`, { name: "Cliente (copia)" });
    expect(cloned.statusCode).toBe(200);
    const shown = await owner.api("GET", `/api/dashboards/${cloned.json().data.permalink}`);
    expect(shown.json().data.language).toBe("es");
  });
});
