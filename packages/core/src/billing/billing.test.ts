import { describe, expect, it } from "vitest";
import {
  billingStanding,
  COMPANY_STATES,
  type CompanyBillingFacts,
  type CompanyFlags,
  companyFlags,
  isExpired,
} from "./company-flags";
import { BANNER_ORDER, globalMessagesFor, groupMessagesByType, MESSAGE_CATALOGUE } from "./messages";

const base: CompanyBillingFacts = {
  state: "trial",
  subscription: null,
  services: { dashboards: 25, bonusDashboards: 0 },
  dashboardsCount: 0,
};
const sub = { id: "sub_1", interval: 1 };

describe("companyFlags", () => {
  it.each([
    [
      "trial without subscription",
      base,
      { isTrialWithoutSubscription: true, hasSubscription: false, isCanceled: false },
    ],
    ["canceled without subscription is not canceled", { ...base, state: "canceled" }, { isCanceled: false }],
    ["canceled with subscription", { ...base, state: "canceled", subscription: sub }, { isCanceled: true }],
    ["overdue without subscription is not overdue", { ...base, state: "overdue" }, { isOverdue: false }],
    ["overdue with subscription", { ...base, state: "overdue", subscription: sub }, { isOverdue: true }],
    ["below allowance", { ...base, dashboardsCount: 24 }, { canCreateDashboard: true }],
    ["at allowance", { ...base, dashboardsCount: 25 }, { canCreateDashboard: false }],
    [
      "bonus dashboards count",
      { ...base, dashboardsCount: 25, services: { dashboards: 25, bonusDashboards: 2 } },
      { canCreateDashboard: true },
    ],
  ] as const)("%s", (_label, company, expected) => {
    expect(companyFlags(company)).toMatchObject(expected);
  });
});

describe("globalMessagesFor (docs/product.md §4)", () => {
  it.each([
    ["trial without subscription → 120", base, false, [120]],
    ["canceled with subscription → 126", { ...base, state: "canceled", subscription: sub }, false, [126]],
    ["overdue with subscription → 128", { ...base, state: "overdue", subscription: sub }, false, [128]],
    ["active subscription → none", { ...base, state: "active", subscription: sub }, false, []],
    [
      "no subscription, not trial, no dashboards left → 129",
      { ...base, state: "expired", dashboardsCount: 25 },
      false,
      [129],
    ],
    ["no subscription, not trial, dashboards left → none", { ...base, state: "expired" }, false, []],
    ["invalid source → 125", { ...base, state: "active", subscription: sub }, true, [125]],
    ["trial and invalid source → 120, 125", base, true, [120, 125]],
  ] as const)("%s", (_label, company, invalid, codes) => {
    expect(globalMessagesFor({ ...company, hasInvalidSource: invalid }).map((m) => m.code)).toEqual(codes);
  });

  it("120 is a warning that cannot be closed", () => {
    const [message] = globalMessagesFor({ ...base, hasInvalidSource: false });
    expect(message).toMatchObject({ type: "warning", closeable: false, title: "Your Reportz Trial Is Active" });
  });

  it("groups by type in order of first appearance", () => {
    const messages = [
      { code: 1, title: null, body: "a", closeable: true, type: "info" as const },
      { code: 2, title: null, body: "b", closeable: true, type: "warning" as const },
      { code: 3, title: null, body: "c", closeable: true, type: "info" as const },
    ];
    expect(groupMessagesByType(messages).map((g) => [g.type, g.messages.map((m) => m.code)])).toEqual([
      ["info", [1, 3]],
      ["warning", [2]],
    ]);
  });
});

const NOW = new Date("2026-11-26T12:00:00Z");
const EXPIRY = { none: null, future: "2026-12-10T12:00:00Z", past: "2026-11-20T12:00:00Z" } as const;
type Expiry = keyof typeof EXPIRY;
const FLAG_NAMES: Record<string, keyof CompanyFlags> = {
  sub: "hasSubscription",
  canceled: "isCanceled",
  overdue: "isOverdue",
  trial: "isTrialWithoutSubscription",
  dash: "canCreateDashboard",
  report: "canCreateAutomaticReport",
};

/** Expands "sub,dash" into the full flag object, every flag not named being false. */
function flagsOf(names: string): CompanyFlags {
  const on = new Set(names.split(",").filter(Boolean));
  for (const name of on) if (!(name in FLAG_NAMES)) throw new Error(`unknown flag ${name}`);
  return Object.fromEntries(
    Object.entries(FLAG_NAMES).map(([short, key]) => [key, on.has(short)]),
  ) as unknown as CompanyFlags;
}

/**
 * Every state × subscription × expiry (at NOW): the true flags with room for a dashboard, and the
 * banners with room and with the allowance used up. With the allowance used up the flags are the same
 * except that `dash` is false.
 */
const MATRIX: ReadonlyArray<readonly [string, boolean, Expiry, string, number[], number[]]> = [
  // state, subscribed, expiry, flags with room, codes with room, codes used up
  ["trial", false, "none", "trial,dash,report", [120], [120]],
  ["trial", false, "future", "trial,dash,report", [120], [120]],
  ["trial", false, "past", "", [129], [129]], // expired trial: no creation, invited to subscribe
  ["trial", true, "none", "sub,dash,report", [], [121]],
  ["trial", true, "future", "sub,dash,report", [], [121]],
  ["trial", true, "past", "sub,dash,report", [], [121]], // the subscription carries it
  ["active", false, "none", "dash", [], [129]],
  ["active", false, "future", "dash", [], [129]],
  ["active", false, "past", "", [129], [129]],
  ["active", true, "none", "sub,dash,report", [], [121]],
  ["active", true, "future", "sub,dash,report", [], [121]],
  ["active", true, "past", "sub,dash,report", [], [121]],
  ["canceled", false, "none", "dash", [], [129]],
  ["canceled", false, "future", "dash", [], [129]],
  ["canceled", false, "past", "", [129], [129]],
  ["canceled", true, "none", "sub,canceled,dash", [126], [126]],
  ["canceled", true, "future", "sub,canceled,dash", [126], [126]], // paid period still running
  ["canceled", true, "past", "sub,canceled", [126], [126]], // past the paid period
  ["overdue", false, "none", "dash", [], [129]],
  ["overdue", false, "future", "dash", [], [129]],
  ["overdue", false, "past", "dash", [], [129]],
  ["overdue", true, "none", "sub,overdue,dash,report", [128], [128, 121]],
  ["overdue", true, "future", "sub,overdue,dash,report", [128], [128, 121]],
  ["overdue", true, "past", "sub,overdue,dash,report", [128], [128, 121]], // keeps service while retried
  ["restored", false, "none", "dash", [122], [122, 129]],
  ["restored", false, "future", "dash", [122], [122, 129]],
  ["restored", false, "past", "", [122, 129], [122, 129]],
  ["restored", true, "none", "sub,dash,report", [], [121]],
  ["restored", true, "future", "sub,dash,report", [], [121]],
  ["restored", true, "past", "sub,dash,report", [], [121]],
];

function factsFor(state: string, subscribed: boolean, expiry: Expiry, usedUp: boolean): CompanyBillingFacts {
  return {
    state,
    subscription: subscribed ? sub : null,
    services: { dashboards: 10, bonusDashboards: 2 },
    dashboardsCount: usedUp ? 12 : 11,
    expiresAt: EXPIRY[expiry],
  };
}

describe("company states × subscription × expiry × allowance (docs/product.md §3, §4)", () => {
  it("covers every state, subscription and expiry once", () => {
    const keys = MATRIX.map(([state, subscribed, expiry]) => `${state}/${subscribed}/${expiry}`);
    expect(new Set(keys).size).toBe(COMPANY_STATES.length * 2 * 3);
    expect(new Set(MATRIX.map(([state]) => state))).toEqual(new Set(COMPANY_STATES));
  });

  describe.each(MATRIX)("%s, subscribed %s, expiry %s", (state, subscribed, expiry, flags, roomCodes, fullCodes) => {
    it("with room for a dashboard", () => {
      const facts = factsFor(state, subscribed, expiry, false);
      expect(companyFlags(facts, NOW)).toEqual(flagsOf(flags));
      expect(globalMessagesFor({ ...facts, hasInvalidSource: false }, NOW).map((m) => m.code)).toEqual(roomCodes);
    });

    it("with the allowance used up", () => {
      const facts = factsFor(state, subscribed, expiry, true);
      expect(companyFlags(facts, NOW)).toEqual({ ...flagsOf(flags), canCreateDashboard: false });
      expect(globalMessagesFor({ ...facts, hasInvalidSource: false }, NOW).map((m) => m.code)).toEqual(fullCodes);
    });

    it("an invalid source adds 125 last", () => {
      const facts = factsFor(state, subscribed, expiry, true);
      expect(globalMessagesFor({ ...facts, hasInvalidSource: true }, NOW).map((m) => m.code)).toEqual([
        ...fullCodes,
        125,
      ]);
    });
  });
});

describe("expiry", () => {
  it.each([
    ["no expiry", null, NOW, false],
    ["absent expiry", undefined, NOW, false],
    ["one millisecond before", "2026-11-26T12:00:00.001Z", NOW, false],
    ["exactly at the expiry", "2026-11-26T12:00:00.000Z", NOW, true],
    ["after", "2026-11-26T11:59:59.999Z", NOW, true],
    ["offset notation", "2026-11-26T13:00:00+01:00", NOW, true],
    ["no clock given: not judged", "2020-01-01T00:00:00Z", undefined, false],
    ["unparseable: not judged", "soon", NOW, false],
  ] as const)("%s", (_label, expiresAt, now, expired) => {
    expect(isExpired(expiresAt, now)).toBe(expired);
  });

  it("without `now` an expired trial keeps its flags and banner (callers that pass no clock)", () => {
    const facts = factsFor("trial", false, "past", false);
    expect(companyFlags(facts)).toEqual(flagsOf("trial,dash,report"));
    expect(globalMessagesFor({ ...facts, hasInvalidSource: false }).map((m) => m.code)).toEqual([120]);
  });

  it.each([
    ["running trial", "trial", false, "future", true],
    ["expired trial", "trial", false, "past", false],
    ["canceled within its period", "canceled", true, "future", true],
    ["canceled past its period", "canceled", true, "past", false],
    ["overdue past its period", "overdue", true, "past", true],
    ["restored past its grace period", "restored", false, "past", false],
    ["active with a subscription past its date", "active", true, "past", true],
  ] as const)("service (what public views and creation hang on): %s", (_label, state, subscribed, expiry, service) => {
    expect(billingStanding(factsFor(state, subscribed, expiry, false), NOW).hasService).toBe(service);
  });
});

describe("banner catalogue (docs/product.md §4)", () => {
  it.each([
    [120, "warning", false, "Your Reportz Trial Is Active", "/company/subscription"],
    [121, "warning", true, "All Dashboards Used Up", "/company/subscription"],
    [122, "warning", true, "Restored Account", "/company/subscription"],
    [125, "warning", true, "Expired Sources", "/company"],
    [126, "warning", true, "Canceled Account", "/company/subscription"],
    [128, "warning", true, "Account Overdue", "/company/manage-payment"],
    [129, "info", true, "Create & Share Your Own Marketing KPI Report", "/company/subscription"],
  ] as const)("%i: %s, closeable %s, %s", (code, type, closeable, title, link) => {
    expect(MESSAGE_CATALOGUE[code]).toMatchObject({ code, type, closeable, title });
    expect(MESSAGE_CATALOGUE[code].body).toContain(`href="${link}"`);
  });

  it("orders every catalogued banner exactly once", () => {
    expect([...BANNER_ORDER].sort()).toEqual(Object.keys(MESSAGE_CATALOGUE).map(Number).sort());
  });
});
