import { describe, expect, it } from "vitest";
import { initialState, onboardingGuardBlock } from "../onboarding/machine";
import { decideNavigation, type GuardUser } from "./guards";
import { matchRoute, REDIRECTS, routeByName } from "./routes";
import { buildDocumentTitle, documentSiteTitle } from "./title";

const admin: GuardUser = { id: "u1", roleName: "admin", termsConsent: true, ageConsent: true, introPassed: true };
const member: GuardUser = { ...admin, id: "u2", roleName: "user" };

describe("matchRoute", () => {
  it.each([
    ["/dashboards", "dashboards.index", {}],
    ["/dashboards/create", "dashboards.create", {}],
    ["/dashboards/abc123", "dashboard.show", { permalink: "abc123" }],
    ["/dashboards/abc123/print", "dashboard.print", { permalink: "abc123" }],
    ["/dashboards/abc123/realtime", "dashboard.realTime", { permalink: "abc123" }],
    ["/groups/create", "campaigns.create", {}],
    ["/groups/7", "campaign.show", { campaignId: "7" }],
    ["/users/u9", "user", { userId: "u9" }],
    ["/company/users/", "company.users", {}],
    ["/company/automatic-reports?x=1", "company.automaticReports", {}],
  ])("%s → %s", (path, name, params) => {
    const match = matchRoute(path);
    expect(match?.route.name).toBe(name);
    expect(match?.params).toEqual(params);
  });

  it.each([["/nope"], ["/dashboards/a/b/c"], ["/company/other"]])("%s matches nothing (404 page)", (path) => {
    expect(matchRoute(path)).toBeNull();
  });

  it("has the product's fixed redirects", () => {
    expect(REDIRECTS["/"]).toBe("/dashboards");
    expect(REDIRECTS["/company"]).toBe("/company/sources");
  });

  it.each([
    ["dashboards.index", "Dashboards"],
    ["dashboards.create", "Create Dashboard"],
    ["campaigns.index", "Groups"],
    ["campaigns.create", "Create Group"],
    ["company.sources", "Company Sources"],
    ["company.invoices", "Invoices"],
    ["company.automaticReports", "Automatic Reports"],
    ["company.users", "Users"],
    ["intro", "Intro"],
    ["dashboard.show", null],
    ["user", null],
    ["campaign.show", null],
  ])("route %s has title %s", (name, title) => {
    expect(routeByName(name).title).toBe(title);
  });
});

describe("buildDocumentTitle", () => {
  it.each([
    ["Dashboards", "Reportz", "Dashboards | Reportz"],
    [null, "Reportz", "Reportz"],
    ["Users", "Acme Reports", "Users | Acme Reports"],
    ["", "Acme", "Acme"],
  ])("%s + %s → %s", (title, site, expected) => {
    expect(buildDocumentTitle(title, site)).toBe(expected);
  });
});

describe("documentSiteTitle (white label for public viewers)", () => {
  it.each([
    ["guest on a public dashboard of Acme", "Reportz", "Acme Reports", "Acme Reports"],
    ["member of another company on Acme's dashboard", "Beta Reports", "Acme Reports", "Acme Reports"],
    ["owner without a public title (member)", "Acme Reports", null, "Acme Reports"],
    ["guest on the login page", "Reportz", undefined, "Reportz"],
    ["owner's company has a blank title", "Reportz", "  ", "Reportz"],
  ])("%s → %s + %s → %s", (_label, page, owner, expected) => {
    expect(documentSiteTitle(page, owner)).toBe(expected);
    expect(buildDocumentTitle("Q3 report", documentSiteTitle(page, owner))).toBe(`Q3 report | ${expected}`);
  });
});

describe("decideNavigation (docs/product.md §2 guards, in order)", () => {
  const cases: Array<[string, string, GuardUser | null, ReturnType<typeof decideNavigation>]> = [
    ["guest on a dashboard", "/dashboards/abc", null, { kind: "allow" }],
    ["guest on a print view", "/dashboards/abc/print", null, { kind: "allow" }],
    ["guest on an error page", "/404", null, { kind: "allow" }],
    ["guest on groups", "/groups", null, { kind: "redirect", to: "/login", reason: "login" }],
    ["guest on company sources", "/company/sources", null, { kind: "redirect", to: "/login", reason: "login" }],
    ["guest on login", "/login", null, { kind: "allow" }],
    ["signed-in user on login", "/login", admin, { kind: "redirect", to: "/dashboards", reason: "guest" }],
    [
      "no terms consent",
      "/dashboards",
      { ...admin, termsConsent: false },
      { kind: "redirect", to: "/users/u1", reason: "consent" },
    ],
    [
      "no age consent",
      "/company/sources",
      { ...admin, ageConsent: false },
      { kind: "redirect", to: "/users/u1", reason: "consent" },
    ],
    ["no consent, own user page", "/users/u1", { ...admin, ageConsent: false, introPassed: false }, { kind: "allow" }],
    ["no consent, subscription page", "/company/subscription", { ...admin, ageConsent: false }, { kind: "allow" }],
    [
      "intro not passed",
      "/dashboards",
      { ...admin, introPassed: false },
      { kind: "redirect", to: "/intro", reason: "intro" },
    ],
    [
      "intro not passed, user page",
      "/users/u1",
      { ...admin, introPassed: false },
      { kind: "redirect", to: "/intro", reason: "intro" },
    ],
    ["intro not passed, on intro", "/intro", { ...admin, introPassed: false }, { kind: "allow" }],
    ["intro passed, on intro", "/intro", admin, { kind: "redirect", to: "/company/sources", reason: "intro" }],
    ["admin on users", "/company/users", admin, { kind: "allow" }],
    ["member on users", "/company/users", member, { kind: "redirect", to: "/dashboards", reason: "admin" }],
    ["member on settings", "/company/settings", member, { kind: "redirect", to: "/dashboards", reason: "admin" }],
    ["member on group create", "/groups/create", member, { kind: "redirect", to: "/dashboards", reason: "admin" }],
    ["member on invoices", "/company/invoices", member, { kind: "redirect", to: "/dashboards", reason: "admin" }],
    ["member on own profile", "/users/u2", member, { kind: "allow" }],
    ["member on other profile", "/users/u1", member, { kind: "redirect", to: "/dashboards", reason: "admin" }],
    ["admin on other profile", "/users/u2", admin, { kind: "allow" }],
    ["member on automatic reports", "/company/automatic-reports", member, { kind: "allow" }],
    // Just set up (its recovery codes on screen): neither the consents nor the intro take the user away.
    ["no consent, two-factor set-up", "/two-factor/setup", { ...member, termsConsent: false }, { kind: "allow" }],
    ["intro not passed, two-factor set-up", "/two-factor/setup", { ...member, introPassed: false }, { kind: "allow" }],
  ];
  it.each(cases)("%s (%s)", (_label, path, user, expected) => {
    const match = matchRoute(path);
    if (!match) throw new Error(`no route for ${path}`);
    expect(decideNavigation({ route: match.route, params: match.params, user })).toEqual(expected);
  });

  it.each([
    ["dashboards", "/dashboards", { kind: "redirect", to: "/two-factor/setup", reason: "twoFactor" }],
    ["own profile", "/users/u1", { kind: "redirect", to: "/two-factor/setup", reason: "twoFactor" }],
    ["company settings", "/company/settings", { kind: "redirect", to: "/two-factor/setup", reason: "twoFactor" }],
    ["intro", "/intro", { kind: "redirect", to: "/two-factor/setup", reason: "twoFactor" }],
    ["the set-up page", "/two-factor/setup", { kind: "allow" }],
    ["an error page", "/403", { kind: "allow" }],
  ] as const)("two-factor required and not set up: %s (%s)", (_label, path, expected) => {
    const match = matchRoute(path);
    if (!match) throw new Error(`no route for ${path}`);
    // Before consents and the intro: the set-up comes first.
    const user = { ...admin, introPassed: false, termsConsent: false };
    expect(decideNavigation({ route: match.route, params: match.params, user, twoFactorSetupRequired: true })).toEqual(
      expected,
    );
  });

  it("the set-up page is open to anyone signed in; the second-step page only to guests", () => {
    const setup = matchRoute("/two-factor/setup");
    const second = matchRoute("/login/two-factor");
    if (!setup || !second) throw new Error("no route");
    expect(decideNavigation({ route: setup.route, params: {}, user: admin })).toEqual({ kind: "allow" });
    expect(decideNavigation({ route: second.route, params: {}, user: null })).toEqual({ kind: "allow" });
    expect(decideNavigation({ route: second.route, params: {}, user: admin })).toMatchObject({ kind: "redirect" });
  });

  it("guard 4: an onboarding block holds the user with the step hint, before the admin guard", () => {
    const match = matchRoute("/company/users");
    if (!match) throw new Error("no route");
    const decision = decideNavigation({
      route: match.route,
      params: match.params,
      user: member,
      fromRouteName: "dashboards.create",
      onboardingBlock: () => "Create your first dashboard.",
    });
    expect(decision).toEqual({
      kind: "block",
      message: "Please complete current step to continue. Create your first dashboard.",
    });
  });

  // Guard 4 with the real onboarding machine (docs/product.md §2, §4): steps 1 and 2 hold the user on their page.
  it.each([
    [
      "dashboard step 1 leaving the create page",
      "dashboard",
      1,
      "dashboards.create",
      "/dashboards",
      { kind: "block", message: "Please complete current step to continue. Create your first dashboard." },
    ],
    [
      "dashboard step 2 leaving the dashboard for the dashboards list",
      "dashboard",
      2,
      "dashboard.show",
      "/dashboards",
      { kind: "block", message: "Please complete current step to continue. Set a data source for your dashboard." },
    ],
    [
      "mc step 1 leaving the group form",
      "mc",
      1,
      "campaigns.create",
      "/groups",
      { kind: "block", message: "Please complete current step to continue. Create your first group." },
    ],
    [
      "mc step 2 leaving the group (block comes before the admin guard)",
      "mc",
      2,
      "campaign.show",
      "/company/users",
      {
        kind: "block",
        message: "Please complete current step to continue. Add the first domain to track in this group.",
      },
    ],
    [
      "dashboard step 2 opening another dashboard",
      "dashboard",
      2,
      "dashboard.show",
      "/dashboards/other",
      { kind: "allow" },
    ],
    ["dashboard step 1 from another page", "dashboard", 1, "company.sources", "/dashboards", { kind: "allow" }],
    ["dashboard step 3 leaving the dashboard", "dashboard", 3, "dashboard.show", "/dashboards", { kind: "allow" }],
    ["mc finished", "mc", 5, "campaign.show", "/groups", { kind: "allow" }],
    [
      "mc step 3, non-admin falls through to guard 5",
      "mc",
      3,
      "campaign.show",
      "/company/users",
      { kind: "redirect", to: "/dashboards", reason: "admin" },
    ],
  ] as const)("guard 4 with the onboarding machine: %s", (_label, flow, serverStep, from, path, expected) => {
    const match = matchRoute(path);
    if (!match) throw new Error(`no route for ${path}`);
    const state = initialState({ serverStep, flow });
    const decision = decideNavigation({
      route: match.route,
      params: match.params,
      user: member,
      fromRouteName: from,
      onboardingBlock: onboardingGuardBlock(state),
    });
    expect(decision).toEqual(expected);
  });

  it("guard 4 with no block falls through to the next guard", () => {
    const match = matchRoute("/company/users");
    if (!match) throw new Error("no route");
    expect(decideNavigation({ route: match.route, params: {}, user: member, onboardingBlock: () => null }).kind).toBe(
      "redirect",
    );
  });
});
