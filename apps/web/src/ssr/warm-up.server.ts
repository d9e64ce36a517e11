import {
  EMPTY_DASHBOARD_STYLES,
  type ServerRenderAnswerer,
  type TDashboard,
  type TInteractiveWidget,
  type TPageData,
  type TWidgetData,
  type TWidgetDataResponse,
} from "@app/core";

/**
 * A member's dashboard made up for the server's first render (server-entry.tsx `warmUp`): the server renders
 * it once as it starts, so that the first real member's page does not pay for the render code's first run
 * (its lazy parts resolved, which costs an extra pass, and its code compiled): on bench (b)'s page the
 * first render was done ~0.5 s sooner (bench/README.md (b)). One card of each format the app draws,
 * answered here from numbers made up for it: nothing is asked of the server, no company's data is read.
 */

export const WARM_UP_PERMALINK = "warm-up";

const START = "2026-01-01";
const END = "2026-01-30";
const DAYS = 30;

/** The cards: a format, the dimension it is split by (none: totals only) and its metrics. */
const CARDS: ReadonlyArray<{
  format: TInteractiveWidget["format"];
  dimension: string | null;
  metrics: string[];
  width: number;
}> = [
  { format: "chart:line", dimension: "date", metrics: ["sessions", "users"], width: 2 },
  { format: "summary", dimension: null, metrics: ["sessions"], width: 1 },
  { format: "table", dimension: "query", metrics: ["clicks", "ctr", "position"], width: 2 },
  { format: "chart:pie", dimension: "device", metrics: ["sessions"], width: 1 },
  { format: "chart:area", dimension: "date", metrics: ["clicks"], width: 2 },
  { format: "chart:gauge", dimension: null, metrics: ["bounce_rate"], width: 1 },
  { format: "chart:bar", dimension: "channel", metrics: ["sessions", "bounce_rate"], width: 2 },
  { format: "chart:radar", dimension: "device", metrics: ["sessions", "users"], width: 1 },
];

const LABELS: Record<string, string[]> = {
  query: ["reporting dashboard", "marketing report", "seo report template", "client dashboard"],
  device: ["desktop", "mobile", "tablet"],
  channel: ["Organic Search", "Direct", "Paid Search", "Referral"],
};

const METRICS: Record<string, { label: string; format: "number" | "percent"; lowerIsBetter?: boolean }> = {
  sessions: { label: "Sessions", format: "number" },
  users: { label: "Users", format: "number" },
  clicks: { label: "Clicks", format: "number" },
  ctr: { label: "CTR", format: "percent" },
  position: { label: "Avg. Position", format: "number", lowerIsBetter: true },
  bounce_rate: { label: "Bounce Rate", format: "percent", lowerIsBetter: true },
};

function widget(index: number): TInteractiveWidget {
  const card = CARDS[index];
  const inputs: TInteractiveWidget["instances"][number]["inputs"] = { metrics: card.metrics };
  if (card.dimension) inputs.dimension = card.dimension;
  return {
    id: `w${index}`,
    realTime: false,
    order: index,
    hash: `h${index}`,
    width: card.width,
    height: 1,
    title: `${card.metrics.map((metric) => METRICS[metric].label).join(", ")} by ${card.dimension ?? "total"}`,
    description: null,
    nature: "interactive",
    format: card.format,
    percent: false,
    hiddenChange: false,
    hiddenHighlight: false,
    rowsLimit: 15,
    orderBy: { column: "dimension", dir: "asc" },
    formatOptions: {},
    instances: [
      {
        id: `i${index}`,
        type: "demo.analytics",
        prefix: "a",
        sourceId: "warm-up-source",
        config: "default",
        currency: null,
        accounts: [],
        inputs,
        metricsOptions: {},
      },
    ],
  };
}

export function warmUpDashboard(): TDashboard {
  return {
    id: "warm-up-dashboard",
    permalink: WARM_UP_PERMALINK,
    name: "Warm-up",
    active: true,
    rangeType: "custom",
    startDate: START,
    endDate: END,
    compareStartDate: null,
    compareEndDate: null,
    defaults: {},
    widgets: CARDS.map((_, index) => widget(index)),
    automaticReports: [],
    styles: EMPTY_DASHBOARD_STYLES,
    passwordProtected: false,
    locked: null,
    hiddenDateSelector: false,
    footer: null,
    language: "en",
  };
}

/** A table of made-up numbers for a card: one row a day, or one per label, or totals alone. */
function table(index: number, shift: number): TWidgetData["current"] {
  const card = CARDS[index];
  const metrics = card.metrics.map((key) => ({ key: `a.${key}`, currency: null, ...METRICS[key] }));
  const value = (row: number, metric: number) =>
    Math.round((1000 + 400 * Math.sin((row + shift) / 3) + 37 * row) / (metric + 1)) / (metric > 0 ? 10 : 1);
  const labels =
    card.dimension === "date"
      ? Array.from({ length: DAYS }, (_, day) => `2026-01-${String(day + 1).padStart(2, "0")}`)
      : (LABELS[card.dimension ?? ""] ?? []);
  const rows = labels.map((dimension, row) => ({ dimension, values: metrics.map((_, metric) => value(row, metric)) }));
  const totals = metrics.map((_, metric) =>
    rows.length > 0 ? rows.reduce((sum, row) => sum + row.values[metric], 0) : value(shift, metric),
  );
  const dimension = card.dimension
    ? {
        key: card.dimension,
        label: card.dimension,
        kind: card.dimension === "date" ? ("date" as const) : ("string" as const),
      }
    : null;
  return { dimension, metrics, rows, totals };
}

function widgetAnswer(index: number): TWidgetDataResponse {
  return {
    data: { current: table(index, 0), previous: table(index, 2), errors: [], notices: [], filters: [], noData: [] },
  };
}

/** The page data of the made-up member (signed in, an agency's administrator, in UTC). */
export function warmUpPageData(): TPageData {
  const id = "warm-up-user";
  const companyId = "warm-up-company";
  return {
    user: {
      id,
      name: "Warm-up",
      role: "Admin",
      roleName: "admin",
      email: "warm-up@example.com",
      avatar: null,
      creator: true,
      companyId,
      ageConsent: true,
      termsConsent: true,
      introPassed: true,
      timezone: "UTC",
      active: true,
    },
    company: {
      id: companyId,
      name: "Warm-up agency",
      domain: null,
      emailUsername: null,
      logo: null,
      phone: null,
      billingDetails: { name: null, address: null, postalCode: null, city: null, country: null, vatId: null },
      siteTitle: "Reportz",
      timezone: "UTC",
      discount: 0,
      activeEmail: false,
      domainCname: null,
      domainRecord: null,
      emailDns: [],
      fromAddress: null,
      verifiedWhitelabel: false,
      services: { dashboards: 25, bonusDashboards: 0 },
      coupons: [],
      state: "active",
      expiresAt: null,
      subscription: null,
      dashboardsCount: 1,
      campaignsCount: 0,
      hasSubscription: false,
      isCanceled: false,
      isOverdue: false,
      isTrialWithoutSubscription: false,
      canCreateDashboard: true,
      canCreateAutomaticReport: true,
    },
    session: {
      userId: id,
      termsConsent: true,
      ageConsent: true,
      roleName: "admin",
      timezone: "UTC",
      dates: {},
      authorization: {},
      twoFactorSetupRequired: false,
    },
    identification: "warm-up",
    messages: [],
    siteTitle: "Reportz",
    onboarding: null,
    config: { maxPdfWidgets: 60, paymentEnabled: false, stripeJsUrl: null, socialProviders: [], errorReporting: null },
  };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });
}

/** Answers the made-up dashboard's calls: the dashboard, each card's data; anything else is not found. */
export const warmUpAnswerer: ServerRenderAnswerer = async (input, init) => {
  const path = input.split("?")[0];
  if (path === `/api/dashboards/${WARM_UP_PERMALINK}`) return json({ data: warmUpDashboard() });
  if (path === "/api/widgets/data" && typeof init.body === "string") {
    const { widgetId } = JSON.parse(init.body) as { widgetId?: string };
    const index = CARDS.findIndex((_, at) => `w${at}` === widgetId);
    if (index !== -1) return json(widgetAnswer(index));
  }
  return json({ code: "not_found", message: "Not found." }, 404);
};
