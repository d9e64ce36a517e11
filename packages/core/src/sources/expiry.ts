import { formatDisplayDate } from "../dates/display";

/**
 * Logins that end for good (a Meta long-lived token, about 60 days, docs/connectors.md): the company's
 * admins are warned this many days before, by e-mail once and by banner 130 until it is reconnected.
 */
export const LOGIN_EXPIRY_WARNING_DAYS = 7;
const DAY_MS = 86_400_000;

/**
 * True when a source's login (`expiresAt`, an ISO instant; null: it does not expire) ends within the
 * warning window from `now`, or has already ended: it is time to reconnect it.
 */
export function loginEndsSoon(expiresAt: string | null | undefined, now: Date): boolean {
  if (!expiresAt) return false;
  const at = Date.parse(expiresAt);
  return Number.isFinite(at) && at <= now.getTime() + LOGIN_EXPIRY_WARNING_DAYS * DAY_MS;
}

/** Source labels come from provider accounts, and banner bodies are HTML: shown, never interpreted. */
function escapeText(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** A source whose login ends soon, as the banner and the e-mail name it. */
export interface ExpiringSource {
  /** "Facebook Ads (Ada Marketing)". */
  label: string;
  expiresAt: string;
}

/** The day a login ends, as the product shows dates ("Dec 05, 2026"), in UTC. */
export function loginEndDay(expiresAt: string): string {
  return formatDisplayDate(new Date(expiresAt).toISOString().slice(0, 10));
}

/** Banner 130's body (HTML): which sources, when, and the way to the sources page to reconnect them. */
export function expiringSourcesBody(sources: readonly ExpiringSource[]): string {
  const named = (source: ExpiringSource) => `<strong>${escapeText(source.label)}</strong>`;
  const day = (source: ExpiringSource) => escapeText(loginEndDay(source.expiresAt));
  const [only] = sources;
  if (sources.length === 1 && only) {
    return `The login of ${named(only)} stops working on ${day(only)}. <a href="/company/sources">Reconnect</a> it to keep its widgets showing data.`;
  }
  const list = sources.map((source) => `${named(source)} (${day(source)})`).join(", ");
  return `The logins of ${list} stop working within a week. <a href="/company/sources">Reconnect</a> them to keep their widgets showing data.`;
}
