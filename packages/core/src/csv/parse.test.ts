import { describe, expect, it } from "vitest";
import { detectDelimiter, parseCsv, stripBom } from "./parse";

describe("parseCsv: accepted input", () => {
  const cases: Array<{ name: string; input: string; rows: string[][]; lines?: number[] }> = [
    {
      name: "simple records",
      input: "a,b\n1,2\n",
      rows: [
        ["a", "b"],
        ["1", "2"],
      ],
      lines: [1, 2],
    },
    {
      name: "no final line break",
      input: "a,b\n1,2",
      rows: [
        ["a", "b"],
        ["1", "2"],
      ],
    },
    {
      name: "CRLF line breaks",
      input: "a,b\r\n1,2\r\n",
      rows: [
        ["a", "b"],
        ["1", "2"],
      ],
      lines: [1, 2],
    },
    {
      name: "old Mac CR line breaks",
      input: "a,b\r1,2",
      rows: [
        ["a", "b"],
        ["1", "2"],
      ],
      lines: [1, 2],
    },
    {
      name: "empty fields",
      input: "a,,c\n,,\n",
      rows: [
        ["a", "", "c"],
        ["", "", ""],
      ],
    },
    {
      name: "trailing separator adds an empty field",
      input: "a,b,\n1,2,",
      rows: [
        ["a", "b", ""],
        ["1", "2", ""],
      ],
    },
    { name: "quoted field with separator", input: '"x, y",2', rows: [["x, y", "2"]] },
    { name: "escaped quotes", input: '"say ""hi""",2', rows: [['say "hi"', "2"]] },
    { name: "quoted empty field", input: '"",b', rows: [["", "b"]] },
    {
      name: "quoted last field then separator",
      input: 'a,"b",\n1,2,3',
      rows: [
        ["a", "b", ""],
        ["1", "2", "3"],
      ],
    },
    {
      name: "line break inside quotes keeps the record's first line",
      input: 'h1,h2\n"two\nlines",x\nlast,y',
      rows: [
        ["h1", "h2"],
        ["two\nlines", "x"],
        ["last", "y"],
      ],
      lines: [1, 2, 4],
    },
    { name: "CRLF inside quotes is kept", input: '"a\r\nb",c', rows: [["a\r\nb", "c"]] },
    {
      name: "blank lines are skipped but counted",
      input: "a,b\n\n  \n1,2\n\n",
      rows: [
        ["a", "b"],
        ["1", "2"],
      ],
      lines: [1, 4],
    },
    { name: "a quote inside an unquoted field is text", input: 'tv 5" screen,2', rows: [['tv 5" screen', "2"]] },
    {
      name: "byte-order mark is dropped",
      input: "\ufeffDate,Clicks\n2024-01-01,3",
      rows: [
        ["Date", "Clicks"],
        ["2024-01-01", "3"],
      ],
    },
    {
      name: "semicolon detected",
      input: "a;b\n1,5;2",
      rows: [
        ["a", "b"],
        ["1,5", "2"],
      ],
    },
    {
      name: "tab detected",
      input: "a\tb\n1\t2",
      rows: [
        ["a", "b"],
        ["1", "2"],
      ],
    },
    { name: "empty input", input: "", rows: [] },
    { name: "single field", input: "only", rows: [["only"]] },
    { name: "spaces are kept", input: " a , b ", rows: [[" a ", " b "]] },
  ];
  it.each(cases)("$name", ({ input, rows, lines }) => {
    const result = parseCsv(input);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.rows).toEqual(rows);
    if (lines) expect(result.lines).toEqual(lines);
  });
});

describe("parseCsv: errors name the line", () => {
  const cases: Array<{ name: string; input: string; error: string; options?: Parameters<typeof parseCsv>[1] }> = [
    { name: "unclosed quote", input: 'a,b\n1,2\n"open,3\n4,5', error: "Line 3: unclosed quote" },
    {
      name: "unclosed quote on a later line",
      input: 'a,b\n1,2\n3,4\n5,6\n7,8\n9,10\n11,"x',
      error: "Line 7: unclosed quote",
    },
    {
      name: "too few columns",
      input: "a,b,c,d,e\n1,2,3,4,5\n1,2,3,4,5\n1,2,3",
      error: "Line 4: expected 5 columns, found 3",
    },
    { name: "too many columns", input: "a,b\n1,2,3", error: "Line 2: expected 2 columns, found 3" },
    {
      name: "line numbers count lines inside quotes",
      input: 'a,b\n"multi\nline",2\n1',
      error: "Line 4: expected 2 columns, found 1",
    },
    {
      name: "text after a closing quote",
      input: 'a,b\n"x"y,2',
      error: "Line 2: unexpected character 'y' after closing quote",
    },
    { name: "invalid delimiter", input: "a", options: { delimiter: '"' }, error: "Line 1: invalid delimiter" },
  ];
  it.each(cases)("$name", ({ input, error, options }) => {
    const result = parseCsv(input, options);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toBe(error);
  });

  it("ragged rows are allowed when strictColumns is off", () => {
    const result = parseCsv("a,b\n1", { strictColumns: false });
    expect(result.ok && result.rows).toEqual([["a", "b"], ["1"]]);
  });
});

describe("detectDelimiter and stripBom", () => {
  it.each([
    ["a,b,c", ","],
    ["a;b;c", ";"],
    ["a\tb", "\t"],
    ['"x;y;z",b', ","],
    ["a,b;c", ","],
    ["single", ","],
  ])("%j → %j", (input, expected) => {
    expect(detectDelimiter(input)).toBe(expected);
  });

  it("stripBom drops only a leading mark", () => {
    expect(stripBom("\ufeffabc")).toBe("abc");
    expect(stripBom("abc")).toBe("abc");
  });
});
