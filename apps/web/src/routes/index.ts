import type { ComponentType } from "react";
import CompanyAutomaticReportsScreen from "./company-automatic-reports";
import CompanyInvoicesScreen from "./company-invoices";
import CompanySettingsScreen from "./company-settings";
import CompanySourcesScreen from "./company-sources";
import CompanySubscriptionScreen from "./company-subscription";
import CompanyUsersScreen from "./company-users";
import DashboardPrintScreen from "./dashboard-print";
import DashboardRealtimeScreen from "./dashboard-realtime";
import DashboardShowScreen from "./dashboard-show";
import DashboardsCreateScreen from "./dashboards-create";
import DashboardsIndexScreen from "./dashboards-index";
import ForbiddenScreen from "./forbidden";
import GroupShowScreen from "./group-show";
import GroupsCreateScreen from "./groups-create";
import GroupsIndexScreen from "./groups-index";
import IntroScreen from "./intro";
import LoginScreen from "./login";
import NotFoundScreen from "./not-found";
import PasswordSetScreen from "./password-set";
import RegisterScreen from "./register";
import SubscriptionRequiredScreen from "./subscription-required";
import UserScreen from "./user";

/** Which frame a screen is shown in. */
export type ScreenLayout = "app" | "guest" | "focus" | "bare";

export interface Screen {
  Component: ComponentType;
  layout: ScreenLayout;
}

/** The screen of every route name of the core route table (packages/core/src/routing/routes.ts). */
export const SCREENS: Readonly<Record<string, Screen>> = {
  user: { Component: UserScreen, layout: "app" },
  "dashboards.index": { Component: DashboardsIndexScreen, layout: "app" },
  "dashboards.create": { Component: DashboardsCreateScreen, layout: "app" },
  "dashboard.show": { Component: DashboardShowScreen, layout: "app" },
  "dashboard.print": { Component: DashboardPrintScreen, layout: "bare" },
  "dashboard.realTime": { Component: DashboardRealtimeScreen, layout: "app" },
  "campaigns.index": { Component: GroupsIndexScreen, layout: "app" },
  "campaigns.create": { Component: GroupsCreateScreen, layout: "app" },
  "campaign.show": { Component: GroupShowScreen, layout: "app" },
  "company.sources": { Component: CompanySourcesScreen, layout: "app" },
  "company.settings": { Component: CompanySettingsScreen, layout: "app" },
  "company.subscription": { Component: CompanySubscriptionScreen, layout: "app" },
  "company.invoices": { Component: CompanyInvoicesScreen, layout: "app" },
  "company.automaticReports": { Component: CompanyAutomaticReportsScreen, layout: "app" },
  "company.users": { Component: CompanyUsersScreen, layout: "app" },
  intro: { Component: IntroScreen, layout: "focus" },
  notFound: { Component: NotFoundScreen, layout: "app" },
  forbidden: { Component: ForbiddenScreen, layout: "app" },
  subscriptionRequired: { Component: SubscriptionRequiredScreen, layout: "app" },
  login: { Component: LoginScreen, layout: "guest" },
  register: { Component: RegisterScreen, layout: "guest" },
  "password.set": { Component: PasswordSetScreen, layout: "guest" },
};

export { NotFoundScreen };
