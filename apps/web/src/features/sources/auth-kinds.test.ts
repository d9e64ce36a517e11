import { describe, expect, it } from "vitest";
import { withScheme } from "./auth-kinds";

describe("withScheme: a shop's address as typed into the sources form", () => {
  it.each([
    ["shop.example.com", "https://shop.example.com"],
    ["  shop.example.com/store ", "https://shop.example.com/store"],
    ["https://shop.example.com", "https://shop.example.com"],
    // Kept as typed: the server refuses plain http in words rather than the form silently upgrading it.
    ["http://shop.example.com", "http://shop.example.com"],
    ["HTTPS://Shop.example.com", "HTTPS://Shop.example.com"],
    ["", ""],
  ])("%j → %j", (typed, sent) => {
    expect(withScheme(typed)).toBe(sent);
  });
});
