import { describe, expect, it } from "vitest";
import { globalMessagesFor } from "../billing/messages";
import { expiringSourcesBody, LOGIN_EXPIRY_WARNING_DAYS, loginEndsSoon } from "./expiry";

const NOW = new Date("2026-11-29T09:00:00.000Z");
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY).toISOString();

describe("loginEndsSoon", () => {
  it.each<[string, string | null | undefined, boolean]>([
    ["no expiry (a System User token)", null, false],
    ["unset", undefined, false],
    ["unreadable", "soon", false],
    ["about 60 days away", at(59), false],
    ["eight days away", at(8), false],
    ["a minute past the window", new Date(NOW.getTime() + 7 * DAY + 60_000).toISOString(), false],
    ["exactly a week away", at(LOGIN_EXPIRY_WARNING_DAYS), true],
    ["tomorrow", at(1), true],
    ["already past", at(-3), true],
  ])("%s", (_name, expiresAt, expected) => {
    expect(loginEndsSoon(expiresAt, NOW)).toBe(expected);
  });
});

describe("banner 130", () => {
  const company = {
    state: "active",
    subscription: { id: "sub_1", interval: 1 },
    trialEndsAt: null,
    dashboardsCount: 1,
    services: { dashboards: 25, bonusDashboards: 0 },
    hasInvalidSource: false,
  } as const;

  it("names the source and its day, with the way to the sources page", () => {
    expect(expiringSourcesBody([{ label: "Facebook Ads (Ada)", expiresAt: "2026-12-04T10:00:00.000Z" }])).toBe(
      'The login of <strong>Facebook Ads (Ada)</strong> stops working on Dec 04, 2026. <a href="/company/sources">Reconnect</a> it to keep its widgets showing data.',
    );
  });

  it("names each source and its day, escaped, with the way to the sources page", () => {
    const body = expiringSourcesBody([
      { label: "Facebook Ads (Ada <Marketing>)", expiresAt: "2026-12-04T10:00:00.000Z" },
      { label: "Facebook Ads (Bob)", expiresAt: "2026-12-05T10:00:00.000Z" },
    ]);
    expect(body).toContain("<strong>Facebook Ads (Ada &lt;Marketing&gt;)</strong> (Dec 04, 2026)");
    expect(body).toContain("<strong>Facebook Ads (Bob)</strong> (Dec 05, 2026)");
    expect(body).toContain('<a href="/company/sources">Reconnect</a>');
  });

  it.each([
    [[], false],
    [[{ label: "Facebook Ads", expiresAt: at(2) }], true],
  ])("shows only with sources to reconnect (%j)", (expiringSources, shown) => {
    const codes = globalMessagesFor({ ...company, expiringSources }, NOW).map((message) => message.code);
    expect(codes.includes(130)).toBe(shown);
  });
});
