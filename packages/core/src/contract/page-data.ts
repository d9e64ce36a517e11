import { z } from "zod";
import { ONBOARDING_FLOWS } from "../onboarding/flows";
import { ZCompany } from "./company";
import { SOCIAL_PROVIDERS } from "./social-auth";
import { ZUser } from "./users";

export const ZGlobalMessage = z.object({
  code: z.number().int(),
  title: z.string().nullable(),
  body: z.string(),
  closeable: z.boolean(),
  type: z.enum(["error", "warning", "success", "info"]),
});
export type TGlobalMessage = z.infer<typeof ZGlobalMessage>;

/** User session data of docs/product.md §3. */
export const ZSessionData = z.object({
  userId: z.string(),
  termsConsent: z.boolean(),
  ageConsent: z.boolean(),
  roleName: z.string(),
  timezone: z.string(),
  dates: z.record(z.string(), z.unknown()),
  authorization: z.record(z.string(), z.string()),
  /** The company requires two-factor and the user has none: the app shows only the set-up page. */
  twoFactorSetupRequired: z.boolean(),
});
export type TSessionData = z.infer<typeof ZSessionData>;

/** What the SPA's HTML carries and GET /api/page-data returns. */
export const ZPageData = z.object({
  user: ZUser.nullable(),
  company: ZCompany.nullable(),
  session: ZSessionData.nullable(),
  identification: z.string(),
  messages: z.array(ZGlobalMessage),
  siteTitle: z.string(),
  onboarding: z
    .object({
      /** The flow chosen at registration; the questionnaire's source picks the flow when it names one. */
      flow: z.enum(ONBOARDING_FLOWS),
      step: z.number().int(),
      /** The intro questionnaire's answer (docs/product.md §3), null until answered. */
      source: z.string().nullable(),
      /** The flow the company's plan imposes (a lifetime deal: dashboard): then the intro asks nothing. */
      forcedFlow: z.enum(ONBOARDING_FLOWS).nullable(),
    })
    .nullable(),
  config: z.object({
    maxPdfWidgets: z.number().int(),
    paymentEnabled: z.boolean(),
    /** Where the checkout loads Stripe.js from (STRIPE_JS_URL); null when payments are off. */
    stripeJsUrl: z.string().nullable(),
    /** The social sign-in providers configured on this server (docs/product.md §2): only these get buttons. */
    socialProviders: z.array(z.enum(SOCIAL_PROVIDERS)),
    /** Sentry for the browser; null: the app reports nothing (and never loads the SDK). */
    errorReporting: z.object({ dsn: z.string(), sampleRate: z.number(), environment: z.string() }).nullable(),
  }),
});
export type TPageData = z.infer<typeof ZPageData>;

export const ZHealth = z.object({ status: z.literal("ok") });

/*
 * The public view rendered by the server (docs/decisions.md "Public view: rendered by the server, the app on
 * the first touch"): what the server (apps/server page-data/server-render.ts) and the web build's server
 * bundle it loads (apps/web ssr/server-entry.tsx) agree on. Types only: the server never imports the web's
 * code, it evaluates the built bundle at start-up.
 */

/**
 * fetch's own types where the program using this contract has them (the server's Node, the web's DOM): an
 * answerer stands in for fetch, and core itself is built without either platform's types.
 */
type PlatformFetch = typeof globalThis extends { fetch: (input: never, init?: infer Init) => Promise<infer Answer> }
  ? { init: NonNullable<Init>; answer: Answer }
  : { init: never; answer: unknown };

/**
 * Answers the API calls the view makes, inside the server (the page's request's own headers): the bundle's
 * transport, called as fetch is, so the web's queries get exactly the JSON the browser would get.
 */
export type ServerRenderAnswerer = (input: string, init: PlatformFetch["init"]) => Promise<PlatformFetch["answer"]>;

/**
 * What the page carries for the browser (`<script id="ssr-state">`), read by the web's ssr/boot.ts.
 * `Queries` is React Query's dehydrated state on the web's side; the server only writes it into the page.
 */
export interface ServerRenderState<Queries = unknown> {
  /**
   * The zone the ranges were computed in: the browser hydrates in it, or starts the app anew. The first
   * field, so the entry (main.tsx) compares it with the browser's without parsing the rest.
   */
  timezone: string;
  /**
   * Whose view it is: a public viewer's (the app waits for the reader: ssr/boot.ts) or a member's own
   * dashboard (the app hydrates it at once: ssr/member-view.tsx).
   */
  view: "public" | "member";
  /** Every card has its answer and nothing was left to the browser: the app may wait for the reader. */
  complete: boolean;
  /** The answers the HTML was rendered from (the dashboard, each widget's data). */
  queries: Queries;
}

/** What the server asks the bundle to render. */
export interface ServerRenderRequest {
  /** The page's address (path and query). */
  url: string;
  pageData: TPageData;
  timezone: string;
  /** Answers the API calls the view makes, inside the server (the request's own headers). */
  answer: ServerRenderAnswerer;
  /** How long the answers may take altogether; cards still waiting then are drawn loading. */
  budgetMs: number;
  /**
   * The width of the viewer's viewport in CSS pixels, when the browser said it (the Sec-CH-Viewport-Width
   * client hint): a member's charts are then drawn ahead at the sizes their boxes will have (`charts`).
   */
  viewportWidth?: number;
  /**
   * Called with the charts noted so far (as `RenderedPublicView.charts`) after each pass of the render
   * that noted any, so that their drawing starts while the render goes on.
   */
  onCharts?: (charts: PageChart[]) => void;
}

/** A member's chart as the page will ask the server to draw it (`RenderedPublicView.charts`). */
export interface PageChart {
  widgetId: string;
  input: Record<string, unknown>;
  size: { width: number; height: number };
  body: { width: number; height: number };
}

/** A public view rendered by the server: the HTML of the app's root and the state beside it. */
export interface RenderedPublicView<Queries = unknown> {
  html: string;
  state: ServerRenderState<Queries>;
  /**
   * A member's charts as the page will ask the server to draw them (POST /api/chart-snapshots: each chart's
   * input and its box's size at the viewport's width), drawn ahead while the browser loads the page. Each
   * names its card (`widgetId`) and the card body's size it was laid out at (`body`): a drawing sent in the
   * page itself is put into its card only where the browser laid the card out at those sizes.
   */
  charts?: PageChart[];
}

/**
 * The bundle's `renderPublicView`: null when there is nothing a public viewer may see here without the app
 * (a password, an error, a dashboard not served).
 */
export type RenderPublicView<Queries = unknown> = (
  request: ServerRenderRequest,
) => Promise<RenderedPublicView<Queries> | null>;

/** The server bundle's exports, as the server uses them. */
export interface ServerRenderBundle {
  renderPublicView: RenderPublicView;
  /** A member's own dashboard page, rendered as the app renders it; null when it is not that. */
  renderMemberView: RenderPublicView;
  /** The server's user HTML sanitiser, given as the bundle is loaded (DOMPurify needs a DOM). */
  setUserHtmlSanitizer(sanitize: (html: string) => string): void;
  /**
   * A chart's SVG as the browser's snapshot worker draws it (`input` a `ChartInput`, size in CSS pixels);
   * rejects when the input cannot be drawn. POST /api/chart-snapshots.
   */
  drawChartSvg(input: Record<string, unknown>, size: { width: number; height: number }): Promise<string>;
  /** Draws a chart of each format once, so a process's first real drawings do not run cold. */
  warmChartDrawing(): Promise<void>;
  /**
   * Renders a made-up member's dashboard once, so a process's first real page is not rendered by code run
   * for the first time; null when it could not be rendered.
   */
  warmUp(): Promise<ServerRenderWarmUp | null>;
}

/** What the server's warm-up render drew (`ServerRenderBundle.warmUp`). */
export interface ServerRenderWarmUp {
  /** Its dashboard's cards, those drawn ready, and the charts noted to be drawn ahead. */
  cards: number;
  ready: number;
  charts: number;
  /** Whether every answer was in and every part loaded (nothing left for a browser to do). */
  complete: boolean;
}
