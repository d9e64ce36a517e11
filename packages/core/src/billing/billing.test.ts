import { describe, expect, it } from "vitest";
import { type CompanyBillingFacts, companyFlags } from "./company-flags";
import { globalMessagesFor, groupMessagesByType } from "./messages";

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
