import { describe, expect, it } from "vitest";
import { ZCampaignDomainInput, ZCampaignInput } from "../contract/campaigns";
import { DOMAIN_MESSAGES, normaliseDomain } from "./domain";

describe("normaliseDomain", () => {
  it.each([
    ["example.com", "example.com"],
    ["  Example.COM  ", "example.com"],
    ["https://www.Example.com/path?x", "example.com"],
    ["http://example.com:8080/", "example.com"],
    ["www.example.co.uk", "example.co.uk"],
    ["example.com.", "example.com"],
    ["blog.example.com", "blog.example.com"],
    ["HTTPS://Shop.Example.com#top", "shop.example.com"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["https://münchen.de/", "xn--mnchen-3ya.de"],
    ["xn--bcher-kva.de", "xn--bcher-kva.de"],
    ["my-site.agency", "my-site.agency"],
    ["example.xn--p1ai", "example.xn--p1ai"],
    // Only a leading www. goes: it is the same site; www2 or wwwexample are other names.
    ["www2.example.com", "www2.example.com"],
    ["wwwexample.com", "wwwexample.com"],
  ])("%s → %s", (input, expected) => {
    expect(normaliseDomain(input)).toEqual({ ok: true, domain: expected });
  });

  it.each([
    ["", DOMAIN_MESSAGES.required],
    ["   ", DOMAIN_MESSAGES.required],
    ["acme", DOMAIN_MESSAGES.invalid],
    ["example", DOMAIN_MESSAGES.notPublic],
    ["user@example.com", DOMAIN_MESSAGES.invalid],
    ["https://user:secret@example.com/", DOMAIN_MESSAGES.invalid],
    ["www.com", DOMAIN_MESSAGES.invalid],
    ["exa mple.com", DOMAIN_MESSAGES.invalid],
    ["foo_bar.com", DOMAIN_MESSAGES.invalid],
    ["-foo.com", DOMAIN_MESSAGES.invalid],
    ["foo-.com", DOMAIN_MESSAGES.invalid],
    ["a..b.com", DOMAIN_MESSAGES.invalid],
    ["example.c", DOMAIN_MESSAGES.invalid],
    ["example.123", DOMAIN_MESSAGES.invalid],
    ["ftp://example.com", DOMAIN_MESSAGES.invalid],
    ["mailto:someone@example.com", DOMAIN_MESSAGES.invalid],
    ["http://", DOMAIN_MESSAGES.invalid],
    [`${"a".repeat(64)}.com`, DOMAIN_MESSAGES.invalid],
    [`${"abcdefghij.".repeat(25)}com`, DOMAIN_MESSAGES.tooLong],
    ["https://example.com/".padEnd(2100, "x"), DOMAIN_MESSAGES.invalid],
    ["192.168.0.1", DOMAIN_MESSAGES.ipAddress],
    ["http://127.1/", DOMAIN_MESSAGES.ipAddress],
    ["[::1]", DOMAIN_MESSAGES.ipAddress],
    ["https://[2001:db8::1]:443/", DOMAIN_MESSAGES.ipAddress],
    ["localhost", DOMAIN_MESSAGES.notPublic],
    ["http://localhost:3000", DOMAIN_MESSAGES.notPublic],
    ["app.localhost", DOMAIN_MESSAGES.notPublic],
    ["printer.local", DOMAIN_MESSAGES.notPublic],
    ["db.internal", DOMAIN_MESSAGES.notPublic],
    ["shop.test", DOMAIN_MESSAGES.notPublic],
    ["site.example", DOMAIN_MESSAGES.notPublic],
    ["nothing.invalid", DOMAIN_MESSAGES.notPublic],
    ["hidden.onion", DOMAIN_MESSAGES.notPublic],
  ])("%j is refused: %s", (input, message) => {
    expect(normaliseDomain(input)).toEqual({ ok: false, message });
  });
});

describe("the group contract", () => {
  const fieldErrors = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    (result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]);

  it.each([
    [{}, [["name", "The name field is required."]]],
    [{ name: "   " }, [["name", "The name field is required."]]],
    [{ name: "x".repeat(101) }, [["name", "The name may not be greater than 100 characters."]]],
    [{ name: 5 }, [["name", "The name field is required."]]],
  ])("a name %j is refused", (input, expected) => {
    expect(fieldErrors(ZCampaignInput.safeParse(input))).toEqual(expected);
  });

  it("takes a trimmed name of up to 100 characters", () => {
    expect(ZCampaignInput.parse({ name: "  Clients A–M " })).toEqual({ name: "Clients A–M" });
    expect(ZCampaignInput.parse({ name: "x".repeat(100) }).name).toHaveLength(100);
  });

  it("normalises the domain on the way in and says why one is refused", () => {
    expect(ZCampaignDomainInput.parse({ domain: "https://www.Example.com/path?x" })).toEqual({ domain: "example.com" });
    expect(fieldErrors(ZCampaignDomainInput.safeParse({ domain: "localhost" }))).toEqual([
      ["domain", DOMAIN_MESSAGES.notPublic],
    ]);
    expect(fieldErrors(ZCampaignDomainInput.safeParse({}))).toEqual([["domain", DOMAIN_MESSAGES.required]]);
  });
});
