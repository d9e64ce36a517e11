import type { ComponentType } from "react";

/** Which frame a screen is shown in. */
export type ScreenLayout = "app" | "guest" | "focus" | "bare";

/** A screen's module: its component, and what must be loaded before a page the server rendered of it is hydrated. */
export interface ScreenModule {
  default: ComponentType;
  prepareHydration?: () => Promise<unknown>;
}

export interface Screen {
  /** Loads the screen's module on first visit, so each screen is its own chunk. */
  load: () => Promise<ScreenModule>;
  layout: ScreenLayout;
}

/** The screen of every route name of the core route table (packages/core/src/routing/routes.ts). */
export const SCREENS: Readonly<Record<string, Screen>> = {
  user: { load: () => import("./user"), layout: "app" },
  "dashboards.index": { load: () => import("./dashboards-index"), layout: "app" },
  "dashboards.create": { load: () => import("./dashboards-create"), layout: "app" },
  "dashboard.show": { load: () => import("./dashboard-show"), layout: "bare" },
  "dashboard.print": { load: () => import("./dashboard-print"), layout: "bare" },
  "dashboard.realTime": { load: () => import("./dashboard-realtime"), layout: "bare" },
  "dashboard.embedded": { load: () => import("./dashboard-embedded"), layout: "bare" },
  "campaigns.index": { load: () => import("./campaigns-index"), layout: "app" },
  "campaigns.create": { load: () => import("./campaigns-create"), layout: "app" },
  "campaign.show": { load: () => import("./campaign-show"), layout: "app" },
  "company.sources": { load: () => import("./company-sources"), layout: "app" },
  "company.settings": { load: () => import("./company-settings"), layout: "app" },
  "company.subscription": { load: () => import("./company-subscription"), layout: "app" },
  "company.invoices": { load: () => import("./company-invoices"), layout: "app" },
  "company.managePayment": { load: () => import("./company-manage-payment"), layout: "app" },
  "company.automaticReports": { load: () => import("./company-automatic-reports"), layout: "app" },
  "company.users": { load: () => import("./company-users"), layout: "app" },
  "company.auditLog": { load: () => import("./company-audit-log"), layout: "app" },
  intro: { load: () => import("./intro"), layout: "focus" },
  "twoFactor.setup": { load: () => import("./two-factor-setup"), layout: "focus" },
  notFound: { load: () => import("./not-found"), layout: "app" },
  forbidden: { load: () => import("./forbidden"), layout: "app" },
  subscriptionRequired: { load: () => import("./subscription-required"), layout: "app" },
  login: { load: () => import("./login"), layout: "guest" },
  "login.twoFactor": { load: () => import("./login-two-factor"), layout: "guest" },
  register: { load: () => import("./register"), layout: "guest" },
  "password.set": { load: () => import("./password-set"), layout: "guest" },
};
