import {
  type CouponType,
  couponEffects,
  DEFAULT_REGISTRATION_DASHBOARDS,
  MAX_REGISTRATION_DASHBOARDS,
  normaliseNumberInput,
} from "@app/core";

export interface RegistrationParams {
  flow: "dashboard" | "mc";
  dashboards: number;
  interval: 1 | 12;
  coupons: string[];
}

/**
 * Query parameters of the registration page (docs/product.md §2): source (dashboard | mc), dashboards
 * (default 25), annual (present → 12 months), coupons (repeated or comma-separated).
 */
export function parseRegistrationParams(search: URLSearchParams): RegistrationParams {
  const flow = search.get("source") === "mc" ? "mc" : "dashboard";
  const dashboards =
    normaliseNumberInput(search.get("dashboards") ?? "", { min: 1, max: MAX_REGISTRATION_DASHBOARDS }) ??
    DEFAULT_REGISTRATION_DASHBOARDS;
  const interval = search.has("annual") ? 12 : 1;
  const coupons: string[] = [];
  for (const value of search.getAll("coupons")) {
    for (const code of value.split(",")) {
      const trimmed = code.trim();
      // A code is not applied twice (docs/product.md §5: case-insensitive).
      if (trimmed && !coupons.some((c) => c.toLowerCase() === trimmed.toLowerCase())) coupons.push(trimmed);
    }
  }
  return { flow, dashboards, interval, coupons };
}

/**
 * The onboarding flow to register with: the page's `source`, unless a looked-up code is a lifetime deal
 * (docs/product.md §2: the AppSumo flow is forced to the dashboard flow; the server forces it too).
 */
export function registrationFlow(flow: RegistrationParams["flow"], couponTypes: readonly CouponType[]) {
  return couponEffects(couponTypes.map((type) => ({ type, value: 0 }))).forcedFlow ?? flow;
}

/** The analytics client id (Google Analytics cookie `_ga` = GA1.1.<id>), sent as cid when present. */
export function readAnalyticsClientId(): string | undefined {
  const match = document.cookie.match(/(?:^|;\s*)_ga=([^;]+)/);
  if (!match) return undefined;
  const parts = decodeURIComponent(match[1]).split(".");
  return parts.length >= 4 ? parts.slice(-2).join(".") : undefined;
}
