import { shiftDay } from "@app/core";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import { ProviderError } from "../http/errors";
import { perRuntime } from "../http/per-runtime";
import type { SourceHandle } from "../types";
import { graphVersion, metaGraph, metaUserAuth } from "./shared";

/**
 * The Pages a Facebook login manages, with their Page tokens and linked Instagram professional
 * accounts, and the date handling Page and Instagram insights share. Two sources (docs/connectors.md,
 * "Facebook Social"): `GET /me/accounts`, the Pages the user has a role on, which Meta documents as
 * leaving out Pages reached through a business; and, with business_management granted, each of the
 * user's Business portfolios' own and client Pages (`/{business}/owned_pages`, `/client_pages`), where
 * an agency finds the Pages its clients shared with it.
 *
 * Page tokens are fetched with the user token when a widget needs them and kept in this process for
 * 15 minutes, not stored with the source: a Page token made from a long-lived user token lives as
 * long as the grant, so storing it would add nothing, and a Page added or removed later is seen.
 */

const ZAccounts = z.object({
  data: z
    .array(
      z.object({
        id: z.string(),
        name: z.string().default(""),
        access_token: z.string().optional(),
        instagram_business_account: z.object({ id: z.string(), username: z.string().default("") }).optional(),
      }),
    )
    .default([]),
  paging: z
    .object({ cursors: z.object({ after: z.string().optional() }).partial().optional(), next: z.string().optional() })
    .optional(),
});
export type ManagedPage = z.infer<typeof ZAccounts>["data"][number];

const pagesCache = perRuntime(() => new LRUCache<string, ManagedPage[]>({ max: 1000, ttl: 15 * 60_000 }));

const FIELDS = "id,name,access_token,instagram_business_account{id,username}";
const ZBusinesses = z.object({ data: z.array(z.object({ id: z.string() })).default([]) });

/** Every Page of the source's login, each once: its own Page roles first, then its portfolios' Pages. */
export async function managedPages(source: SourceHandle): Promise<ManagedPage[]> {
  const auth = metaUserAuth(source);
  // Keyed by the token too: a re-authorised source (another login) does not see the old list.
  const key = `${source.id}:${auth.headers.authorization?.slice(-16)}`;
  const cache = pagesCache(source.runtime);
  const cached = cache.get(key);
  if (cached) return cached;
  const pages = await listed(source, "/me/accounts");
  for (const business of await businesses(source)) {
    for (const edge of ["owned_pages", "client_pages"]) {
      // One portfolio refusing its list (the user is only an employee there) costs that list, not the
      // source: the same permission errors as `/me/businesses` are skipped.
      const listing = listed(source, `/${encodeURIComponent(business)}/${edge}`).catch((error: unknown) => {
        if (isPermissionRefusal(error)) return [];
        throw error;
      });
      pages.push(...(await listing));
    }
  }
  // A Page both a role of the user's and its portfolio's is listed once, as `/me/accounts` gave it.
  const seen = new Set<string>();
  const unique = pages.filter((page) => !seen.has(page.id) && seen.add(page.id));
  cache.set(key, unique);
  return unique;
}

/** One Page list edge, every answer of it (cursor paging, at most 10 answers of 100). */
async function listed(source: SourceHandle, edge: string): Promise<ManagedPage[]> {
  const auth = metaUserAuth(source);
  const pages: ManagedPage[] = [];
  let after: string | undefined;
  for (let answer = 0; answer < 10; answer++) {
    const page = await metaGraph(source.runtime).request({
      path: `${graphVersion(source)}${edge}`,
      query: { fields: FIELDS, limit: 100, after, ...auth.query },
      headers: auth.headers,
      schema: ZAccounts,
      limitKey: `user:${source.id}`,
    });
    pages.push(...page.data);
    after = page.paging?.cursors?.after;
    if (!page.paging?.next || !after || page.data.length === 0) break;
  }
  return pages;
}

/**
 * The login's Business portfolios (`/me/businesses`). A login that did not grant business_management
 * (connected before it was asked, or unticked at the consent) is refused with a permission error
 * (#200 or #10): it then has no portfolios here, rather than failing its own Pages; reconnecting grants it.
 */
async function businesses(source: SourceHandle): Promise<string[]> {
  const auth = metaUserAuth(source);
  try {
    const answer = await metaGraph(source.runtime).request({
      path: `${graphVersion(source)}/me/businesses`,
      query: { fields: "id,name", limit: 100, ...auth.query },
      headers: auth.headers,
      schema: ZBusinesses,
      limitKey: `user:${source.id}`,
    });
    return answer.data.map((business) => business.id);
  } catch (error) {
    if (isPermissionRefusal(error)) return [];
    throw error;
  }
}

/** Meta's permission errors (#10, #200–#299): something this login may not read, not a lost login. */
const isPermissionRefusal = (error: unknown) =>
  error instanceof ProviderError && /^code (10|2\d\d)\b/.test(error.reason);

/**
 * The day an insights value belongs to. Meta stamps a daily value with the END of that day in the
 * Page's (or Instagram account's) time zone, in UTC: day D of a Pacific page is `D+1T07:00:00+0000`
 * (T08:00 in winter). Twelve hours before that instant is day D in UTC for every zone from UTC−11 to
 * UTC+12; the zone itself is not in the answer.
 */
export function dayOfEndTime(endTime: string): string | null {
  const at = Date.parse(endTime.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  if (Number.isNaN(at)) return null;
  return new Date(at - 12 * 3_600_000).toISOString().slice(0, 10);
}

/**
 * A range cut into windows Meta accepts (`maxDays` days each): for each, `since` is its first day and
 * `until` the day after its last (Meta's `until` is exclusive for daily values).
 */
export function windows(start: string, end: string, maxDays: number): { since: string; until: string }[] {
  const out: { since: string; until: string }[] = [];
  for (let since = start; since <= end; since = shiftDay(since, maxDays)) {
    const last = shiftDay(since, maxDays - 1);
    out.push({ since, until: shiftDay(last < end ? last : end, 1) });
  }
  return out;
}

/** Every day of a range (yyyy-mm-dd), so a chart has a point per day (the connectors' kit). */
export { daysOf } from "../kit/inputs";
