import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { connectByConsent } from "../../../test/connector-scenarios/kit";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { instance, uploadCsv, widgetData } from "../../features/widgets/test-helpers";
import { seal, unseal } from "../../infra/security";
import { googleFake } from "../google/fake";
import { gridOfValues, spreadsheetIdOf } from ".";
import { type FakeCell, type FakeSpreadsheet, fakeCells, fakeSpreadsheetId, sheetsFake } from "./fake";

const fakes = fakesForFile(afterAll, () => {
  const google = googleFake();
  return { google, sheets: sheetsFake(google.state) };
});
const parts = async () => (await fakes.current()).parts;
const calls = async () => (await fakes.current()).calls;

const { percent, dollars, date } = fakeCells;

/** A spreadsheet of this test's own (ids are unique, so tests on both databases never meet). */
async function addSpreadsheet(cells: FakeCell[][], extra: Partial<FakeSpreadsheet> = {}) {
  const spreadsheet: FakeSpreadsheet = {
    id: fakeSpreadsheetId(randomUUID()),
    title: "Client report",
    modifiedTime: "2020-01-01T00:00:00.000Z",
    // A copy: a test that edits its sheet leaves the shared grids below as they are.
    tabs: [{ sheetId: 0, title: "Data", cells: structuredClone(cells) }],
    ...extra,
  };
  (await parts()).sheets.spreadsheets.push(spreadsheet);
  return spreadsheet.id;
}

/** The four questions as the form starts them. */
const FLAGS = { has_header: true, has_footer: false, has_labels: true, uses_date_range: false };

const sheetInstance = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "googleSheets.sheet", { sheet: "Data", ...FLAGS, ...inputs });

async function options(client: TestClient, sourceId: string, list: string, form: Record<string, string> = {}) {
  const query = new URLSearchParams({ type: "googleSheets.sheet", ...form });
  return client.api("GET", `/api/sources/${sourceId}/${list}?${query}`);
}

/** A source connected through the fake's consent, as the sources page's popup does; its id. */
const connect = (client: TestClient): Promise<string> => connectByConsent(client, "googleSheets");

/** What File → Download → CSV writes for these cells: the text each shows, rows as wide as the widest. */
function csvOf(cells: FakeCell[][]): string {
  const width = Math.max(...cells.map((row) => row.length));
  const shown = (cell: FakeCell | undefined) =>
    cell === null || cell === undefined ? "" : typeof cell === "object" ? cell.shown : String(cell);
  const quoted = (text: string) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  return cells.map((row) => Array.from({ length: width }, (_, i) => quoted(shown(row[i]))).join(",")).join("\n");
}

const DAILY: FakeCell[][] = [
  ["Date", "Sessions", "Revenue", "Bounce rate", "Notes"],
  [date("2025-03-01"), 100, dollars(1000.5), percent(40), "launch"],
  [date("2025-03-02"), 120, dollars(900), percent(50)],
  [date("2025-03-03"), 80, dollars(700.25), percent(45)],
  ["Total", 300, dollars(2600.75), percent(45)],
];
const CHANNELS: FakeCell[][] = [
  ["Channel", "Visits", "Orders"],
  ["Organic", 500, 20],
  ["Paid", 300, 15],
  ["Email", 100, 9],
  ["Total", 900, 44],
];
// Google leaves out trailing empty cells: 'Paid' has no orders and no note, 'Email' no note.
const RAGGED: FakeCell[][] = [
  ["Channel", "Visits", "Orders", "Note"],
  ["Organic", 500, 20, "best month"],
  ["Paid", 300],
  ["Email", 100, 9],
];

/** The same grids through the CSV connector and Google Sheets: one implementation, the same numbers. */
const CASES: Array<{
  name: string;
  cells: FakeCell[][];
  inputs: Record<string, unknown>;
  range: { startDate: string; endDate: string };
  rows: Array<{ dimension: string; values: Array<number | null> }>;
  totals: Array<number | null>;
}> = [
  {
    name: "header, dates in the first column, filtered to the range (the footer no longer applies)",
    cells: DAILY,
    inputs: {
      has_footer: true,
      has_labels: false,
      uses_date_range: true,
      dimension: "date",
      metrics: ["sessions", "revenue", "bounce_rate"],
    },
    range: { startDate: "2025-03-02", endDate: "2025-03-03" },
    rows: [
      { dimension: "2025-03-02", values: [120, 900, 50] },
      { dimension: "2025-03-03", values: [80, 700.25, 45] },
    ],
    // Percentages are averaged, the rest summed.
    totals: [200, 1600.25, 47.5],
  },
  {
    name: "labels with a totals row (has_footer): the footer is the totals",
    cells: CHANNELS,
    inputs: { has_footer: true, dimension: "channel", metrics: ["visits", "orders"] },
    range: { startDate: "2025-03-01", endDate: "2025-03-31" },
    rows: [
      { dimension: "Organic", values: [500, 20] },
      { dimension: "Paid", values: [300, 15] },
      { dimension: "Email", values: [100, 9] },
    ],
    totals: [900, 44],
  },
  {
    name: "the same sheet without has_footer: the totals row is one more row",
    cells: CHANNELS,
    inputs: { has_footer: false, dimension: "channel", metrics: ["orders"] },
    range: { startDate: "2025-03-01", endDate: "2025-03-31" },
    rows: [
      { dimension: "Organic", values: [20] },
      { dimension: "Paid", values: [15] },
      { dimension: "Email", values: [9] },
      { dimension: "Total", values: [44] },
    ],
    totals: [88],
  },
  {
    name: "ragged rows: missing trailing cells are empty",
    cells: RAGGED,
    inputs: { dimension: "channel", metrics: ["visits", "orders"] },
    range: { startDate: "2025-03-01", endDate: "2025-03-31" },
    rows: [
      { dimension: "Organic", values: [500, 20] },
      { dimension: "Paid", values: [300, null] },
      { dimension: "Email", values: [100, 9] },
    ],
    totals: [900, 29],
  },
];

async function storedCredentials(env: TestEnv, sourceId: string) {
  const row = await env.ctx.db
    .selectFrom("sources")
    .select("credentials")
    .where("id", "=", sourceId)
    .executeTakeFirstOrThrow();
  return JSON.parse(unseal(env.ctx.config.appKey, row.credentials ?? "")) as Record<string, string>;
}

async function storeCredentials(env: TestEnv, sourceId: string, credentials: Record<string, string>) {
  await env.ctx.db
    .updateTable("sources")
    .set({ credentials: seal(env.ctx.config.appKey, JSON.stringify(credentials)) })
    .where("id", "=", sourceId)
    .execute();
}

describe("a spreadsheet named by its address", () => {
  const id = fakeSpreadsheetId("addressed");
  it.each([
    [`https://docs.google.com/spreadsheets/d/${id}/edit#gid=0`, id],
    [`https://docs.google.com/spreadsheets/d/${id}/edit?usp=sharing`, id],
    [`https://docs.google.com/spreadsheets/u/1/d/${id}/`, id],
    [`https://docs.google.com/spreadsheets/d/${id}`, id],
    [` ${id} `, id],
    ["https://docs.google.com/spreadsheets/d/e/2PACX-1vQ0published0to0the0web/pubhtml", null],
    ["https://example.com/spreadsheets/d/1abcdefghijklmnopqrstuvwxyz/edit", null],
    ["Client report", null],
  ])("%s → %s", (value, expected) => {
    expect(spreadsheetIdOf(value)).toBe(expected);
  });

  it("numbers rows as the sheet does and leaves out rows without text, as a CSV's blank lines", () => {
    expect(
      gridOfValues({ range: "'My sheet'!A3:C9", values: [["Day", "Clicks"], [], ["2025-03-01", 4, true], ["", " "]] }),
    ).toEqual({
      rows: [
        ["Day", "Clicks"],
        ["2025-03-01", "4", "true"],
      ],
      lines: [3, 5],
    });
  });
});

describeEachDb(
  "Google Sheets against a local Google",
  (env) => {
    it("connects through Google's consent with the Sheets and Drive metadata scopes", async () => {
      const { client } = await buildOwner(env());
      const catalogue = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(catalogue.find((entry: { key: string }) => entry.key === "googleSheets")).toMatchObject({
        order: 8,
        authKind: "oauth2",
        available: true,
        note: null,
      });
      const { consent, result } = await connectOAuth(client, "googleSheets");
      expect(consent.searchParams.get("scope")?.split(" ")).toEqual([
        "https://www.googleapis.com/auth/spreadsheets.readonly",
        "https://www.googleapis.com/auth/drive.metadata.readonly",
        "openid",
        "email",
      ]);
      expect(result).toMatchObject({ ok: true, connector: "googleSheets" });
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([
        expect.objectContaining({ id: result.sourceId, name: "googleSheets", invalid: false }),
      ]);
    });

    it("the spreadsheet picker lists Drive's spreadsheets, newest first, searches by name and keeps the chosen one", async () => {
      const { client } = await buildOwner(env());
      const sourceId = await connect(client);
      const listed = await options(client, sourceId, "properties");
      expect(listed.statusCode).toBe(200);
      // Trashed spreadsheets and ones the login cannot open are not listed.
      expect(listed.json().data.slice(0, 2)).toEqual([
        { value: fakeSpreadsheetId("dailytraffic"), label: "Daily traffic" },
        { value: fakeSpreadsheetId("channels"), label: "Channels Q1" },
      ]);
      expect(JSON.stringify(listed.json().data)).not.toMatch(/Old budget|Someone else/);
      const call = (await calls()).findLast((entry) => entry.path === "/drive/v3/files");
      expect(call?.query).toEqual({
        q: "mimeType='application/vnd.google-apps.spreadsheet' and trashed=false",
        fields: "files(id,name,modifiedTime),nextPageToken",
        orderBy: "modifiedTime desc",
        pageSize: "100",
      });
      expect(call?.headers.authorization).toMatch(/^Bearer ya29\.fake-access-/);

      const searched = await options(client, sourceId, "properties", { searchTerm: "chan" });
      expect(searched.json().data).toEqual([{ value: fakeSpreadsheetId("channels"), label: "Channels Q1" }]);
      expect((await calls()).findLast((entry) => entry.path === "/drive/v3/files")?.query.q).toBe(
        "mimeType='application/vnd.google-apps.spreadsheet' and trashed=false and name contains 'chan'",
      );
      // Quotes in a search are escaped as Drive's query language wants, not an invalid query.
      expect((await options(client, sourceId, "properties", { searchTerm: "Client's" })).statusCode).toBe(200);

      // A spreadsheet in a shared drive is not in Drive's list; once chosen, the picker still shows its title.
      const shared = await addSpreadsheet([["a"]], { title: "Agency shared drive", inSharedDrive: true });
      const kept = await options(client, sourceId, "properties", { include: shared });
      expect(kept.json().data[0]).toEqual({ value: shared, label: "Agency shared drive" });
    });

    it("a pasted address finds its spreadsheet, and widgets read it by the address as well as by its id", async () => {
      const { client } = await buildOwner(env());
      const sourceId = await connect(client);
      const id = await addSpreadsheet(CHANNELS, { title: "Pasted report", inSharedDrive: true });
      const address = `https://docs.google.com/spreadsheets/d/${id}/edit#gid=0`;
      const found = await options(client, sourceId, "properties", { searchTerm: address });
      expect(found.json().data).toEqual([{ value: id, label: "Pasted report" }]);
      expect((await calls()).findLast((entry) => entry.path === `/v4/spreadsheets/${id}`)?.query).toEqual({
        fields: "properties.title",
      });
      const sheets = await options(client, sourceId, "sheets", { property: address });
      expect(sheets.json().data).toEqual([{ value: "Data", label: "Data" }]);
      const inputs = { has_footer: true, metrics: ["visits"] };
      const byAddress = await widgetData(client, [sheetInstance(sourceId, { ...inputs, property: address })]);
      expect(byAddress.statusCode).toBe(200);
      expect(byAddress.json().data.current.totals).toEqual([900]);
      const byId = await widgetData(client, [sheetInstance(sourceId, { ...inputs, property: id })]);
      expect(byId.json().data.current.totals).toEqual([900]);

      const published = "https://docs.google.com/spreadsheets/d/e/2PACX-1vQ0published/pubhtml";
      const refused = await options(client, sourceId, "properties", { searchTerm: published });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.property[0]).toContain("This is not a spreadsheet's address");
    });

    it("the sheet picker lists the grid sheets (a chart sheet has no cells); columns and dimension follow the answers", async () => {
      const { client } = await buildOwner(env());
      const sourceId = await connect(client);
      const daily = fakeSpreadsheetId("dailytraffic");
      const sheets = await options(client, sourceId, "sheets", { property: daily });
      expect(sheets.json().data).toEqual([{ value: "Daily", label: "Daily" }]);
      expect((await calls()).findLast((entry) => entry.path === `/v4/spreadsheets/${daily}`)?.query).toEqual({
        fields: "properties.title,sheets.properties(sheetId,title,gridProperties)",
      });
      const form = {
        property: daily,
        sheet: "Daily",
        has_header: "true",
        has_footer: "false",
        has_labels: "false",
        uses_date_range: "true",
      };
      const before = (await calls()).filter((entry) => entry.path.includes("/values/")).length;
      expect((await options(client, sourceId, "columns", form)).json().data).toEqual([
        { value: "sessions", label: "Sessions" },
        { value: "revenue", label: "Revenue" },
        { value: "bounce_rate", label: "Bounce rate" },
      ]);
      expect((await options(client, sourceId, "dimensions", form)).json().data).toEqual([
        { value: "date", label: "Date" },
      ]);
      // The form's lists share one read of the cells: the user's 60 reads a minute are not spent on the form.
      expect((await calls()).filter((entry) => entry.path.includes("/values/")).length).toBe(before + 1);
      const noSheet = await options(client, sourceId, "sheets", {});
      expect(noSheet.statusCode).toBe(422);
      expect(noSheet.json().errors).toEqual({ property: ["The property field is required."] });
    });

    it.each(CASES)("the CSV connector and Google Sheets read the same grid alike: $name", async (entry) => {
      const { client } = await buildOwner(env());
      const sheetsSource = await connect(client);
      const id = await addSpreadsheet(entry.cells);
      const upload = (await uploadCsv(client, csvOf(entry.cells))).json().data;
      const csv = await widgetData(
        client,
        [
          instance(upload.id, "csv.sheet", {
            ...FLAGS,
            ...entry.inputs,
            property: upload.properties[0].value,
            sheet: "sheet1",
          }),
        ],
        { ...entry.range, comparison: false },
      );
      const sheets = await widgetData(client, [sheetInstance(sheetsSource, { ...entry.inputs, property: id })], {
        ...entry.range,
        comparison: false,
      });
      expect(sheets.statusCode).toBe(200);
      expect(csv.statusCode).toBe(200);
      const table = sheets.json().data.current;
      expect(table.rows).toEqual(entry.rows);
      expect(table.totals).toEqual(entry.totals);
      expect(table).toEqual(csv.json().data.current);
      // Asked as the sheet shows its cells (45%, $1,000.50), the whole sheet by its quoted title.
      const call = (await calls()).findLast((item) => item.path.startsWith(`/v4/spreadsheets/${id}/values/`));
      expect(call?.path).toBe(`/v4/spreadsheets/${id}/values/'Data'`);
      expect(call?.query).toEqual({ majorDimension: "ROWS", valueRenderOption: "FORMATTED_VALUE" });
    });

    it("formats follow the cells: money, percentages lower-is-better by name, rows named as the sheet numbers them", async () => {
      const { client } = await buildOwner(env());
      const sourceId = await connect(client);
      const id = await addSpreadsheet(DAILY);
      const inputs = { has_footer: true, has_labels: false, uses_date_range: true, dimension: "date" };
      const response = await widgetData(
        client,
        [sheetInstance(sourceId, { ...inputs, property: id, metrics: ["revenue", "bounce_rate"] })],
        { startDate: "2025-03-01", endDate: "2025-03-31", comparison: false },
      );
      expect(response.json().data.current.metrics).toEqual([
        { key: "a.revenue", label: "Revenue", format: "money", currency: "USD" },
        { key: "a.bounce_rate", label: "Bounce rate", format: "percent", currency: null, lowerIsBetter: true },
      ]);
      // Without has_footer the totals row is read as data: its first cell is not a date, named by its row.
      const wrong = await widgetData(client, [
        sheetInstance(sourceId, { ...inputs, has_footer: false, property: id, metrics: ["sessions"] }),
      ]);
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors).toEqual({ "instances.0.inputs.uses_date_range": ["Row 5: 'Total' is not a date."] });
    });

    it("a sheet, or a spreadsheet, the login cannot read is the form's error (422); the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const sourceId = await connect(client);
      const id = await addSpreadsheet(CHANNELS);
      const base = { has_footer: true, metrics: ["visits"] };
      const missingSheet = await widgetData(client, [
        sheetInstance(sourceId, { ...base, property: id, sheet: "Nope" }),
      ]);
      expect(missingSheet.statusCode).toBe(422);
      expect(missingSheet.json().errors).toEqual({
        "instances.0.inputs.sheet": ["The sheet 'Nope' was not found in this spreadsheet. Choose the sheet again."],
      });
      const notShared = await widgetData(client, [
        sheetInstance(sourceId, { ...base, property: fakeSpreadsheetId("someoneelse"), sheet: "Sheet1" }),
      ]);
      expect(notShared.statusCode).toBe(422);
      expect(notShared.json().errors).toEqual({
        "instances.0.inputs.property": [
          "The spreadsheet was not found or is not shared with this Google account (analytics@acme.example).",
        ],
      });
      const unknown = await options(client, sourceId, "sheets", { property: fakeSpreadsheetId("nosuchsheet") });
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().errors.property[0]).toContain("The spreadsheet was not found");
      const empty = await addSpreadsheet([]);
      const noRows = await widgetData(client, [sheetInstance(sourceId, { ...base, property: empty })]);
      expect(noRows.json().errors).toEqual({ "instances.0.inputs.has_footer": ["The sheet has no data rows."] });
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("a revoked grant makes the source invalid (banner 125)", async () => {
      const { client } = await buildOwner(env());
      const sourceId = await connect(client);
      const stored = await storedCredentials(env(), sourceId);
      // The user removed our access in their Google account: the token dies and its refresh is refused.
      (await parts()).google.revoked.add(stored.refresh_token ?? "");
      (await parts()).google.expireAccessTokens();
      await storeCredentials(env(), sourceId, { ...stored, expires_at: "0" });
      const failed = await widgetData(client, [
        sheetInstance(sourceId, { property: fakeSpreadsheetId("channels"), sheet: "By channel", metrics: ["visits"] }),
      ]);
      expect(failed.statusCode).toBe(502);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(true);
      expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
    });

    it("a sheet never settles: results are kept for 15 minutes, then read again, however old the range", async () => {
      const { client, company } = await buildOwner(env());
      const sourceId = await connect(client);
      const id = await addSpreadsheet(DAILY);
      const sources = env().services.get("sources");
      const request = {
        type: "googleSheets.sheet",
        inputs: {
          property: id,
          sheet: "Data",
          has_header: true,
          has_footer: true,
          has_labels: false,
          uses_date_range: true,
          metrics: ["sessions"],
        },
        range: { startDate: "2025-03-01", endDate: "2025-03-31" },
        timezone: "UTC",
      };
      const reads = async () =>
        (await calls()).filter((entry) => entry.path.startsWith(`/v4/spreadsheets/${id}/`)).length;
      const first = await sources.query(company.id, await sources.load(company.id, sourceId), request);
      expect(first.table.totals).toEqual([300]);
      expect(await reads()).toBe(1);
      // Within 15 minutes the stored result is served.
      await sources.query(company.id, await sources.load(company.id, sourceId), request);
      expect(await reads()).toBe(1);
      // Someone edits the sheet; twenty minutes on, the edit shows although March 2025 is long past.
      const tab = (await parts()).sheets.spreadsheets.find((entry) => entry.id === id)?.tabs[0];
      tab?.cells.splice(1, 1, [date("2025-03-01"), 150]);
      await env()
        .ctx.db.updateTable("provider_results")
        .set({ fetched_at: new Date(Date.now() - 20 * 60_000).toISOString() })
        .where("source_id", "=", sourceId)
        .execute();
      const later = await sources.query(company.id, await sources.load(company.id, sourceId), request);
      expect(await reads()).toBe(2);
      expect(later.table.totals).toEqual([350]);
    });

    it("Google throttling (429) serves the stored numbers with a notice; the source stays valid", async () => {
      const { client, company } = await buildOwner(env());
      const sourceId = await connect(client);
      const id = await addSpreadsheet(CHANNELS);
      const range = { startDate: "2025-04-01", endDate: "2025-04-30" };
      const sources = env().services.get("sources");
      // Stored as the data path stores it: the type's inputs, sorted by name.
      const inputs = { ...FLAGS, has_footer: true, metrics: ["orders"], property: id, sheet: "Data" };
      const sorted = Object.fromEntries(Object.entries(inputs).sort(([a], [b]) => a.localeCompare(b)));
      const stored = await sources.query(company.id, await sources.load(company.id, sourceId), {
        type: "googleSheets.sheet",
        inputs: sorted,
        range,
        timezone: "UTC",
      });
      expect(stored.table.totals).toEqual([44]);
      const fetchedAt = new Date(Date.now() - 20 * 60_000).toISOString();
      await env()
        .ctx.db.updateTable("provider_results")
        .set({ fetched_at: fetchedAt })
        .where("source_id", "=", sourceId)
        .execute();
      (await parts()).sheets.failNext.push({
        status: 429,
        headers: { "retry-after": "60" },
        body: {
          error: {
            code: 429,
            message:
              "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' of service 'sheets.googleapis.com'.",
            status: "RESOURCE_EXHAUSTED",
          },
        },
        pathIncludes: id,
      });
      const throttled = await widgetData(client, [sheetInstance(sourceId, inputs)], { ...range, comparison: false });
      expect(throttled.statusCode).toBe(200);
      expect(throttled.json().data.current.totals).toEqual([44]);
      expect(throttled.json().data.notices).toEqual([
        { instanceId: expect.any(String), asOf: fetchedAt, message: "Google Sheets is limiting requests" },
      ]);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("Google failing (503) on every attempt serves the stored numbers with a notice; the source stays valid", async () => {
      const { client, company } = await buildOwner(env());
      const sourceId = await connect(client);
      const id = await addSpreadsheet(CHANNELS);
      const range = { startDate: "2025-04-01", endDate: "2025-04-30" };
      const sources = env().services.get("sources");
      const inputs = { ...FLAGS, has_footer: true, metrics: ["orders"], property: id, sheet: "Data" };
      const sorted = Object.fromEntries(Object.entries(inputs).sort(([a], [b]) => a.localeCompare(b)));
      const stored = await sources.query(company.id, await sources.load(company.id, sourceId), {
        type: "googleSheets.sheet",
        inputs: sorted,
        range,
        timezone: "UTC",
      });
      expect(stored.table.totals).toEqual([44]);
      const fetchedAt = new Date(Date.now() - 20 * 60_000).toISOString();
      await env()
        .ctx.db.updateTable("provider_results")
        .set({ fetched_at: fetchedAt })
        .where("source_id", "=", sourceId)
        .execute();
      // One fault per attempt (the client asks three times before giving up on a 5xx).
      const outage = {
        status: 503,
        body: { error: { code: 503, message: "The service is currently unavailable.", status: "UNAVAILABLE" } },
        pathIncludes: id,
      };
      (await parts()).sheets.failNext.push(outage, outage, outage);
      const failing = await widgetData(client, [sheetInstance(sourceId, inputs)], { ...range, comparison: false });
      expect(failing.statusCode).toBe(200);
      expect(failing.json().data.current.totals).toEqual([44]);
      expect(failing.json().data.notices).toEqual([
        { instanceId: expect.any(String), asOf: fetchedAt, message: "Google Sheets is not answering" },
      ]);
      expect((await parts()).sheets.failNext).toEqual([]);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("the Google login's 60 reads a minute are counted before asking Google: the 61st is refused (502) without a request, the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const sourceId = await connect(client);
      const id = await addSpreadsheet(CHANNELS);
      // Google counts per user: the bucket is the login's (every source of it), not this source's.
      const bucket = "provider:sheets:user:analytics@acme.example";
      const counters = env().ctx.rateLimits;
      try {
        for (let read = 0; read < 60; read += 1) await counters.hit(bucket, 60_000);
        const before = (await calls()).length;
        const refused = await widgetData(client, [
          sheetInstance(sourceId, { property: id, has_footer: true, metrics: ["visits"] }),
        ]);
        // The client does not wait out a local bucket (a request would hang for up to a minute): it refuses at once.
        expect(refused.statusCode).toBe(502);
        expect((await calls()).slice(before).some((entry) => entry.path.includes("/values/"))).toBe(false);
        expect(await counters.peek(`provider:sheets:user:${sourceId}`)).toBe(0);
        expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
      } finally {
        // The login's bucket would refuse the file's later tests for the rest of the minute.
        await counters.reset(bucket);
      }
    });
  },
  fakes.env,
);
