import { describe, expect, it } from "vitest";
import { filterInlineStyle, isAllowedUserUrl, USER_HTML_TAG_ATTRIBUTES, USER_HTML_TAGS } from "./user-html";

describe("filterInlineStyle", () => {
  it.each([
    ["color: red; font-weight: bold", "color: red; font-weight: bold"],
    ["TEXT-ALIGN: center;", "text-align: center"],
    ["color: rgb(10, 20, 30)", "color: rgb(10, 20, 30)"],
    ["position: fixed; inset: 0; z-index: 9999; background-color: white", "background-color: white"],
    ["position:absolute;top:0;left:0;width:100%", "width: 100%"],
    ["position: sticky", ""],
    ["transform: translate(-50%, -50%)", ""],
    ["display: block; height: 100vh", ""],
    ["background-image: url(https://evil.example/x.png)", ""],
    ["color: red; background: url(javascript:alert(1))", "color: red"],
    ["color: expression(alert(1))", ""],
    ["margin-top: -400px; margin-left: 4px", "margin-left: 4px"],
    ["pos/**/ition: fixed", ""],
    ["color: red !important", "color: red"],
    ["width: 100%; color: blue", "width: 100%; color: blue"],
    ["", ""],
  ])("%j → %j", (style, expected) => {
    expect(filterInlineStyle(style)).toBe(expected);
  });
});

describe("isAllowedUserUrl", () => {
  it.each([
    ["https://example.com/a", true],
    ["http://example.com", true],
    ["mailto:team@example.com", true],
    ["/dashboards/abc", true],
    ["#section", true],
    ["report.pdf", true],
    ["javascript:alert(1)", false],
    ["JavaScript:alert(1)", false],
    [" java\tscript:alert(1)", false],
    ["data:text/html,<script>alert(1)</script>", false],
    ["vbscript:msgbox(1)", false],
    ["//evil.example/login", false],
  ])("%j → %s", (url, allowed) => {
    expect(isAllowedUserUrl(url)).toBe(allowed);
  });
});

describe("the allow-list", () => {
  it("has no form control, frame, script or embedding tag", () => {
    for (const tag of ["form", "input", "button", "select", "textarea", "iframe", "object", "embed", "script"]) {
      expect(USER_HTML_TAGS).not.toContain(tag);
    }
  });

  it("allows no event handler or class attribute", () => {
    const attributes = Object.values(USER_HTML_TAG_ATTRIBUTES).flat();
    expect(attributes.filter((name) => name.startsWith("on") || name === "class")).toEqual([]);
  });
});
