import { describe, expect, it } from "vitest";
import { channelSpellings, companyChannel, companyOfChannel } from "./realtime";

/** The names a client may give the company channel: ours, and the `private-` spelling of Laravel Echo and Pusher. */
describe("companyOfChannel", () => {
  it.each([
    ["company.abc123", "abc123"],
    ["private-company.abc123", "abc123"],
    ["company.A_b-9", "A_b-9"],
    ["private-company.A_b-9", "A_b-9"],
    ["presence-company.abc123", null],
    ["private-private-company.abc123", null],
    ["private-company.", null],
    ["company.", null],
    ["company.abc.def", null],
    ["user.abc123", null],
    ["private-user.abc123", null],
    ["Company.abc123", null],
    [`company.${"a".repeat(65)}`, null],
    ["company.abc123 ", null],
  ])("%s → %s", (channel, company) => {
    expect(companyOfChannel(channel)).toBe(company);
  });
});

describe("channelSpellings", () => {
  it.each([
    [companyChannel("c1"), ["company.c1", "private-company.c1"]],
    ["private-company.c1", ["company.c1", "private-company.c1"]],
    ["user.u1", ["user.u1"]],
    ["private-user.u1", ["private-user.u1"]],
  ])("%s → %j", (channel, spellings) => {
    expect(channelSpellings(channel)).toEqual(spellings);
  });
});
