import { describe, expect, it } from "vitest";
import { columnFormat, readDateColumn, readNumberCell } from "./cells";
import { parseFile, readSheet, SheetError } from "./sheet";

describe("readNumberCell", () => {
  it.each([
    ["42", 42, "number"],
    [" 1,234.5 ", 1234.5, "number"],
    ["1.234,5", 1234.5, "number"],
    ["12,25", 12.25, "number"],
    ["1,500", 1500, "number"],
    ["-3", -3, "number"],
    ["(30)", -30, "number"],
    ["1e3", 1000, "number"],
    ["$12", 12, "money"],
    ["-$12.50", -12.5, "money"],
    ["€ 1.234,56", 1234.56, "money"],
    ["USD 99", 99, "money"],
    ["45%", 45, "percent"],
    ["12.5 %", 12.5, "percent"],
    ["00:02:34", 154, "time"],
    ["1:00:00", 3600, "time"],
    ["2:05", 125, "time"],
  ])("%j → %d (%s)", (raw, value, format) => {
    expect(readNumberCell(raw)).toEqual({ value, format });
  });

  it.each(["", "  ", "-", "N/A", "null"])("%j is empty", (raw) => {
    expect(readNumberCell(raw)).toBeNull();
  });

  it.each(["abc", "12abc", "1,2,3", "$", "2025-03-01"])("%j is text", (raw) => {
    expect(readNumberCell(raw)).toBeUndefined();
  });
});

describe("columnFormat", () => {
  it("follows the majority of written formats", () => {
    const cells = ["$1", "$2", "3"].map(readNumberCell);
    expect(columnFormat(cells)).toBe("money");
    expect(columnFormat(["1", "2", "3%"].map(readNumberCell))).toBe("number");
    expect(columnFormat([null, undefined])).toBe("number");
  });
});

describe("readDateColumn", () => {
  it.each([
    [
      ["2025-03-01", "2025-3-2"],
      ["2025-03-01", "2025-03-02"],
    ],
    [["2025/03/01"], ["2025-03-01"]],
    [["2025-03-01T10:00:00Z"], ["2025-03-01"]],
    [["20250301"], ["2025-03-01"]],
    [
      ["03/01/2025", "03/02/2025"],
      ["2025-03-01", "2025-03-02"],
    ],
    [
      ["01/03/2025", "13/03/2025"],
      ["2025-03-01", "2025-03-13"],
    ],
    [["01.03.2025"], ["2025-03-01"]],
    [
      ["Mar 01, 2025", "March 2 2025", "3 Mar 2025"],
      ["2025-03-01", "2025-03-02", "2025-03-03"],
    ],
    [
      ["2025-02-30", "Total", ""],
      [null, null, null],
    ],
  ])("%j → %j", (cells, expected) => {
    expect(readDateColumn(cells)).toEqual(expected);
  });
});

describe("readSheet", () => {
  const csv = (text: string) => parseFile(Buffer.from(text));
  const all = { hasHeader: true, hasFooter: false, hasLabels: false, usesDateRange: false };

  it("keys columns for expressions and keeps text columns out of the metrics", () => {
    const sheet = readSheet(csv("Sessions,Sessions,2024 Sales,,Note\n1,2,3,4,x\n"), all);
    expect(sheet.columns.map((c) => [c.key, c.numeric])).toEqual([
      ["sessions", true],
      ["sessions_2", true],
      ["col_2024_sales", true],
      ["column_4", true],
      ["note", false],
    ]);
  });

  it.each([
    ["Date,Clicks\n", { ...all, usesDateRange: true }, "has_header", "The file has no data rows."],
    ["Date,Clicks\nTotal,3\n", { ...all, hasFooter: true }, "has_footer", "The file has no data rows."],
    [
      "Date\n2025-01-01\n",
      { ...all, usesDateRange: true },
      "has_labels",
      "The file needs at least one column besides the first.",
    ],
    [
      "Date,Clicks\n2025-01-01,1\nTotal,1\n",
      { ...all, usesDateRange: true },
      "uses_date_range",
      "Line 3: 'Total' is not a date.",
    ],
  ])("%j with %j fails on %s", (text, options, field, message) => {
    try {
      readSheet(csv(text), options);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SheetError);
      expect(error).toMatchObject({ field, message });
    }
  });

  it("reads a Latin-1 export and refuses binary content", () => {
    const latin1 = Buffer.from("Région,Visites\nÎle-de-France,5\n", "latin1");
    expect(readSheet(parseFile(latin1), { ...all, hasLabels: true }).rows[0].label).toBe("Île-de-France");
    expect(() => parseFile(Buffer.from([1, 0, 2]))).toThrow("Invalid file type");
    expect(() => parseFile(Buffer.from("\n\n"))).toThrow("The file is empty.");
  });
});
