import { describe, expect, it } from "vitest";
import { connectedGoogleSource } from "../../../test/connector-scenarios/google";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { checkCalls, describedRequest } from "../google/description-check";
import { googleFake } from "../google/fake";
import { googleSheetsConnector } from ".";
import { description } from "./description";
import { sheetsFake } from "./fake";

/**
 * Google Sheets against Google's own discovery documents (./discovery: Sheets v4, Drive v3): every request
 * the connector builds for every option its form offers (the spreadsheet picker listing, searching and
 * taking a pasted address, each sheet, its columns and dimensions, a widget on each), and every answer
 * the fake gives to them.
 */

const parts = () => {
  const google = googleFake();
  return { google, sheets: sheetsFake(google.state) };
};
const setUp = connectedGoogleSource("googleSheets", parts);

const list = async (kind: string, form: Record<string, string>): Promise<string[]> => {
  const query = new URLSearchParams({ type: "googleSheets.sheet", ...form });
  const response = await setUp.client.api("GET", `/api/sources/${setUp.sourceId}/${kind}?${query}`);
  // A sheet without numbers has no columns to offer (a 422 in words): its requests are checked all the same.
  return response.statusCode === 200 ? response.json().data.map((option: { value: string }) => option.value) : [];
};

const FLAGS = { has_header: "true", has_footer: "false", has_labels: "true", uses_date_range: "false" };

describe("Google Sheets against Google's discovery documents", () => {
  it("names where the pinned documents came from", async () => {
    const loaded = await googleSheetsConnector.description?.();
    expect(loaded?.source.url).toContain("sheets-v4.json");
    expect(loaded?.source.url).toContain("drive-v3.json");
  });

  it("every request its form can make, and every answer the fake gives, is as Google describes", async () => {
    setUp.fakes.calls.length = 0;
    const spreadsheets = await list("properties", {});
    expect(spreadsheets.length).toBeGreaterThan(1);
    await list("properties", { searchTerm: "Q1" });
    await list("properties", { searchTerm: `https://docs.google.com/spreadsheets/d/${spreadsheets[0]}/edit#gid=0` });
    for (const property of spreadsheets) {
      for (const sheet of await list("sheets", { property })) {
        const form = { property, sheet, ...FLAGS };
        const metrics = await list("columns", form);
        await list("dimensions", form);
        if (metrics.length === 0) continue;
        const inputs = { property, sheet, metrics, has_header: true, has_footer: false, has_labels: true };
        await widgetData(setUp.client, [
          instance(setUp.sourceId, "googleSheets.sheet", { ...inputs, uses_date_range: false }),
        ]);
      }
    }
    const report = await checkCalls(description, setUp.fakes.url, setUp.fakes.calls);
    expect(report.requests.length).toBeGreaterThan(5);
    expect(report.problems).toEqual([]);
    expect(report.failed).toEqual([]);
    const asked = new Set(
      report.requests.map((request) =>
        request
          .replace(/\?.*$/, "")
          .replace(/\/d\/.*|\/spreadsheets\/[^/]+/, "/spreadsheets/ID")
          .replace(/\/values\/.*/, "/values/RANGE"),
      ),
    );
    expect(asked).toEqual(
      new Set(["GET /drive/v3/files", "GET /v4/spreadsheets/ID", "GET /v4/spreadsheets/ID/values/RANGE"]),
    );
  });

  it("reports a request Google would refuse and an answer unlike Google's, saying what is wrong", () => {
    const get = (url: string) =>
      describedRequest("https://sheets.googleapis.com", {
        method: "GET",
        url,
        path: url,
        query: {},
        headers: {},
        body: "",
      });
    expect(description.checkRequest(get("/v4/spreadsheets/abc/values/Sheet1?valueRenderOption=FORMATTED"))).toEqual([
      'sheets.spreadsheets.values.get: parameter valueRenderOption: "FORMATTED" is not one of FORMATTED_VALUE, UNFORMATTED_VALUE, FORMULA',
    ]);
    expect(description.checkRequest(get("/drive/v3/files?pageSize=100&orderby=name"))).toEqual([
      "drive.files.list: parameter orderby: not a parameter of drive.files.list",
    ]);
    const values = get("/v4/spreadsheets/abc/values/Sheet1");
    expect(
      description.checkResponse(values, 200, { range: "Sheet1!A1:B2", majorDimension: "ROW", values: [["a", 1]] }),
    ).toEqual([
      'sheets.spreadsheets.values.get: answer.majorDimension: "ROW" is not one of DIMENSION_UNSPECIFIED, ROWS, COLUMNS',
    ]);
    expect(
      description.checkResponse(get("/v4/spreadsheets/abc"), 200, { sheets: [{ properties: { title: 5 } }] }),
    ).toEqual(["sheets.spreadsheets.get: answer.sheets[0].properties.title: expected a string, got number 5"]);
  });
});
