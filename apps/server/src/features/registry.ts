import type { AppContext } from "../context";
import type { App } from "../infra/http";
import type { JobDefinition } from "../infra/jobs";
import type { AuditService } from "./audit/service";
import type { SessionsService } from "./auth";
import type { AuthService } from "./auth/service";
import type { DeliveryService } from "./automatic-reports/delivery";
import type { PrewarmService } from "./automatic-reports/prewarm";
import type { ReportsService } from "./automatic-reports/service";
import type { BillingService } from "./billing/service";
import type { CampaignsService } from "./campaigns/service";
import type { CompaniesService } from "./companies/service";
import type { CouponsService } from "./coupons/service";
import type { DashboardsService } from "./dashboards/service";
import type { ExportsService } from "./exports/service";
import type { FilesService } from "./files/service";
import type { InsightsService } from "./insights/service";
import type { OAuthService } from "./oauth/service";
import type { PageDataService } from "./page-data/service";
import type { PasskeysService } from "./passkeys/service";
import type { SenderService } from "./sender/service";
import type { SignedInSessionsService } from "./sessions/service";
import type { SourcesService } from "./sources/service";
import type { TwoFactorService } from "./two-factor/service";
import type { PendingSignIns } from "./two-factor/sign-in";
import type { UsersService } from "./users/service";
import type { WidgetAlertsService } from "./widget-alerts/service";
import type { WidgetsService } from "./widgets/service";

/** Every feature's services, by name: what features may ask of each other (never each other's repos). */
export interface Services {
  files: FilesService;
  sources: SourcesService;
  oauth: OAuthService;
  widgets: WidgetsService;
  companies: CompaniesService;
  audit: AuditService;
  coupons: CouponsService;
  billing: BillingService;
  sessions: SessionsService;
  signedInSessions: SignedInSessionsService;
  auth: AuthService;
  twoFactor: TwoFactorService;
  twoFactorSignIns: PendingSignIns;
  users: UsersService;
  passkeys: PasskeysService;
  pageData: PageDataService;
  dashboards: DashboardsService;
  exports: ExportsService;
  insights: InsightsService;
  reports: ReportsService;
  reportDelivery: DeliveryService;
  reportPrewarm: PrewarmService;
  sender: SenderService;
  campaigns: CampaignsService;
  widgetAlerts: WidgetAlertsService;
}

export interface ServiceRegistry {
  /** A service provided by a feature; looked up when needed, so two features may depend on each other. */
  get<K extends keyof Services>(name: K): Services[K];
  /** Runs when the app (or the worker) closes: bus subscriptions and the like. */
  onClose(dispose: () => void | Promise<void>): void;
}

// biome-ignore lint/suspicious/noExplicitAny: each job has a payload type of its own
export type AnyJobDefinition = JobDefinition<any>;

export interface FeatureOptions {
  /** Where the built SPA is (page-data serves its HTML). */
  webDist: string;
}

/**
 * A feature registers itself: the services it provides (built from the context and the services of
 * others), its HTTP routes and its jobs. `app.ts` and the worker only list features.
 */
export interface Feature {
  name: string;
  services?(ctx: AppContext, services: ServiceRegistry): Partial<Services>;
  routes?(app: App, ctx: AppContext, services: ServiceRegistry, options: FeatureOptions): void | Promise<void>;
  jobs?(ctx: AppContext, services: ServiceRegistry): AnyJobDefinition[];
  /** Runs once when a process starts running jobs (worker role): catching up on what was missed while down. */
  onJobsStarted?(ctx: AppContext, services: ServiceRegistry): Promise<void>;
}

/** Builds the services of the given features, in order, into one registry. */
export function buildServices(
  ctx: AppContext,
  features: readonly Feature[],
): ServiceRegistry & { close(): Promise<void> } {
  const provided: Partial<Services> = {};
  const disposers: (() => void | Promise<void>)[] = [];
  const registry = {
    get<K extends keyof Services>(name: K): Services[K] {
      const service = provided[name];
      if (!service) throw new Error(`No feature provides the "${name}" service (yet)`);
      return service as Services[K];
    },
    onClose(dispose: () => void | Promise<void>) {
      disposers.push(dispose);
    },
    async close() {
      for (const dispose of disposers.splice(0).reverse()) await dispose();
    },
  };
  for (const feature of features) Object.assign(provided, feature.services?.(ctx, registry) ?? {});
  return registry;
}
