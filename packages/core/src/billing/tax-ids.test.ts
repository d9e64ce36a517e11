import { describe, expect, it } from "vitest";
import { checkVatId, countryName, EU_COUNTRIES, isCountryCode, reverseChargeApplies } from "./tax-ids";

describe("checkVatId", () => {
  it.each([
    // [typed, country, stored value, checked as an EU VAT number]
    ["DE123456789", "DE", "DE123456789", true],
    ["de 123.456.789", "DE", "DE123456789", true],
    ["ATU12345678", "AT", "ATU12345678", true],
    ["BE0123456789", "BE", "BE0123456789", true],
    ["CY12345678X", "CY", "CY12345678X", true],
    ["EL123456789", "GR", "EL123456789", true],
    ["ESX1234567X", "ES", "ESX1234567X", true],
    ["FR 12 345678901", "FR", "FR12345678901", true],
    ["IE1234567WA", "IE", "IE1234567WA", true],
    ["IE1A23456B", "IE", "IE1A23456B", true],
    ["NL123456789B01", "NL", "NL123456789B01", true],
    ["RO12", "RO", "RO12", true],
    ["SE123456789001", "SE", "SE123456789001", true],
    ["LT123456789012", "LT", "LT123456789012", true],
    // No country given: an EU prefix is checked as its country's.
    ["PL1234567890", null, "PL1234567890", true],
    // Outside the EU: kept as typed (trimmed).
    [" GB 123 4567 89 ", "GB", "GB 123 4567 89", false],
    ["CHE-123.456.789 MWST", "CH", "CHE-123.456.789 MWST", false],
    ["12-3456789", "US", "12-3456789", false],
    ["12-3456789", null, "12-3456789", false],
  ])("accepts %j in %s as %j", (typed, country, value, eu) => {
    expect(checkVatId(typed, country)).toEqual({ ok: true, value, eu });
  });

  it.each([
    ["DE12345678", "DE", "Germany VAT numbers are written like DE123456789."],
    ["DE1234567890", "DE", "Germany VAT numbers are written like DE123456789."],
    ["123456789", "DE", "Germany VAT numbers start with DE, e.g. DE123456789."],
    ["FR123456789", "DE", "Germany VAT numbers start with DE, e.g. DE123456789."],
    ["GR123456789", "GR", "Greece VAT numbers start with EL, e.g. EL123456789."],
    ["AT12345678", "AT", "Austria VAT numbers are written like ATU12345678."],
    ["NL123456789A01", "NL", "Netherlands VAT numbers are written like NL123456789B01."],
    ["BE2123456789", "BE", "Belgium VAT numbers are written like BE0123456789."],
    ["SE123456789002", "SE", "Sweden VAT numbers are written like SE123456789001."],
    ["RO0123", "RO", "Romania VAT numbers are written like RO1234567890."],
    ["DE12", null, "Germany VAT numbers are written like DE123456789."],
    ["GB<123>", "GB", "A tax number has letters, digits, spaces, dots, dashes or slashes, and at least two digits."],
    ["ABCDEF", "US", "A tax number has letters, digits, spaces, dots, dashes or slashes, and at least two digits."],
    ["1", "US", "A tax number has letters, digits, spaces, dots, dashes or slashes, and at least two digits."],
  ])("refuses %j in %s", (typed, country, message) => {
    expect(checkVatId(typed, country)).toEqual({ ok: false, message });
  });
});

describe("reverseChargeApplies", () => {
  const on = { enabled: true, sellerCountry: "IE", buyerCountry: "DE", buyerVatId: "DE123456789" };
  it.each([
    ["an EU business in another member state", on, true],
    ["the operator did not enable it", { ...on, enabled: false }, false],
    ["the buyer is in the seller's country", { ...on, buyerCountry: "IE" }, false],
    ["the buyer gave no VAT number (a consumer)", { ...on, buyerVatId: null }, false],
    ["the buyer gave a blank VAT number", { ...on, buyerVatId: " " }, false],
    ["the buyer is outside the EU", { ...on, buyerCountry: "GB" }, false],
    ["the buyer gave no country", { ...on, buyerCountry: null }, false],
    ["the seller is outside the EU", { ...on, sellerCountry: "GB" }, false],
    ["the seller's country is not set", { ...on, sellerCountry: null }, false],
  ])("%s → %s", (_name, facts, expected) => {
    expect(reverseChargeApplies(facts)).toBe(expected);
  });
});

describe("countries", () => {
  it("knows ISO codes and names them in English", () => {
    expect(isCountryCode("DE")).toBe(true);
    expect(isCountryCode("UK")).toBe(false);
    expect(countryName("GR")).toBe("Greece");
    expect(EU_COUNTRIES).toHaveLength(27);
  });
});
