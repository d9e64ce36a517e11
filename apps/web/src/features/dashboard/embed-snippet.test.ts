import { describe, expect, it } from "vitest";
import { embedSnippet } from "./embed-snippet";

describe("embedSnippet", () => {
  it("frames the signed link and keeps the token's query intact (escaped for the attribute)", () => {
    const html = embedSnippet("https://app.example/dashboards/abc/embed?token=1.x_y&a=b", "Client board");
    expect(html).toBe(
      '<iframe src="https://app.example/dashboards/abc/embed?token=1.x_y&amp;a=b" title="Client board" width="100%" height="800" style="border:0" loading="lazy"></iframe>',
    );
    const frame = new DOMParserLike(html);
    expect(frame.src).toBe("https://app.example/dashboards/abc/embed?token=1.x_y&a=b");
  });

  it("a dashboard name cannot close the attribute or the tag", () => {
    const html = embedSnippet("https://app.example/e", `"><script>alert(1)</script>`);
    expect(html).not.toContain("<script>");
    expect(html.match(/"/g)?.length).toBe(12);
  });
});

/** Reads the src attribute back the way a browser decodes it (just the entities we write). */
class DOMParserLike {
  src: string;
  constructor(html: string) {
    const raw = /src="([^"]*)"/.exec(html)?.[1] ?? "";
    this.src = raw
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  }
}
