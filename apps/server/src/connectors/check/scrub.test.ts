import { describe, expect, it } from "vitest";
import { createScrubber } from "./scrub";

const known = {
  secrets: ["ya29.a0AfB_secret-access", "1//0gRefreshTokenValue", "ck_live_123456|cs_live_654321"],
  ids: ["1112223333/4445556666", "act_998877665544", "properties/123456789"],
  names: ["Acme Shoes Ltd", "acme-shoes.com"],
};

describe("the recordings' scrubber", () => {
  const scrub = createScrubber(known);
  const text = JSON.stringify([
    scrub.url(
      "https://graph.facebook.com/v25.0/act_998877665544/insights?access_token=EAAB123456789&appsecret_proof=abcdef0123&code=4/0Aeauth",
    ),
    scrub.url("https://ads.provider.test/v21/customers/1112223333/reports:searchStream"),
    scrub.body("grant_type=refresh_token&refresh_token=1%2F%2F0gRefreshTokenValue&client_secret=GOCSPX-abcdefgh"),
    scrub.headers({ authorization: "Bearer ya29.a0AfB_secret-access", "content-type": "application/json" }),
    scrub.value({
      resourceNames: ["customers/1112223333", "customers/4445556666", "customers/5556667777"],
      owner: { email: "jane.doe@acme-shoes.com", first_name: "Jane", last_name: "Doe" },
      descriptiveName: "Acme Shoes Ltd",
      account_id: 5550001111,
      access_token: "EAAB-page-token-123",
      note: "Report for Acme Shoes Ltd, contact ops@agency.io",
      code: 0,
      metrics: { impressions: "1234567", clicks: 42 },
    }),
  ]);

  it.each([
    ["an access token", "ya29.a0AfB_secret-access"],
    ["a refresh token", "0gRefreshTokenValue"],
    ["a consumer key", "ck_live_123456"],
    ["a consumer secret", "cs_live_654321"],
    ["a token in an address", "EAAB123456789"],
    ["an app secret proof", "abcdef0123"],
    ["an authorisation code", "4/0Aeauth"],
    ["a client secret", "GOCSPX-abcdefgh"],
    ["a page token in an answer", "EAAB-page-token-123"],
    ["an ad account id", "998877665544"],
    ["a customer id", "1112223333"],
    ["a managed customer id", "4445556666"],
    ["an id in a resource name", "5556667777"],
    ["a numeric account id", "5550001111"],
    ["the account's name", "Acme Shoes Ltd"],
    ["a person's first name", '"Jane"'],
    ["a person's last name", '"Doe"'],
    ["an e-mail address", "jane.doe@acme-shoes.com"],
    ["an e-mail address in a sentence", "ops@agency.io"],
  ])("%s does not survive", (_what, secret) => {
    expect(text).not.toContain(secret);
  });

  it("keeps what a replay needs: figures, statuses, shapes of ids, and one placeholder per value", () => {
    expect(text).toContain('"impressions":"1234567"');
    expect(text).toContain('"code":0');
    expect(text).toContain("application/json");
    // The same customer id is the same placeholder in an address and in an answer.
    const inPath = /customers\/(\d{10})\/reports/.exec(text)?.[1];
    expect(inPath).toMatch(/^9\d{9}$/);
    expect(text).toContain(`"customers/${inPath}"`);
    expect(text).toMatch(/act_9\d{11}\/insights/);
    expect(scrub.text("acme-shoes.com")).toMatch(/^site\d+\.example\.com$/);
    expect(scrub.text("properties/123456789")).toMatch(/^properties\/9\d{8}$/);
  });
});
