import { describe, expect, it } from "vitest";
import { searchConsoleSiteFor } from "./domain-metrics";

describe("searchConsoleSiteFor", () => {
  it.each([
    ["acme.com", ["https://acme.com/", "sc-domain:acme.com"], "sc-domain:acme.com"],
    ["acme.com", ["https://www.acme.com/"], "https://www.acme.com/"],
    ["acme.com", ["http://acme.com/"], "http://acme.com/"],
    ["blog.acme.com", ["sc-domain:acme.com"], null],
    ["acme.com", ["https://acme.com/shop/"], null],
    ["acme.com", [], null],
  ])("%s among %j is %s", (domain, sites, expected) => {
    expect(searchConsoleSiteFor(domain, sites)).toBe(expected);
  });
});
