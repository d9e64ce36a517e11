import { z } from "zod";

/**
 * Rank Ranger's Reporting API v2 (now Similarweb Rank Tracker), in one place so a wrong guess is
 * corrected here and nowhere else. Every call is `GET /api/v2/?<method>&key=…&output=json`: the method
 * is a bare query flag, the key rides in the query.
 *
 * Verified (public Looker Studio connectors calling www.rankranger.com/api/v2, Rank Ranger's method pages
 * for add_keyword, add_campaign, market_reach and rank_top100; docs/connectors.md):
 * - the methods `rank` (`start_date`, `end_date`, `campaign_id`, `domain`), `get_visibility_trend`
 *   (the same plus `se_id`), `rank_stats` (one `date`), and `package_campaigns` (the campaign list the
 *   method pages send users to for a `campaign_id`);
 * - `output=json` (XML otherwise) and `json_strict=true` (lists as arrays, not objects keyed by index);
 * - `rank` answers `{result: [{date, url, lp, keyword, se, se_name, rank}]}`, the date as MM/DD/YYYY
 *   and `rank` empty or 0 when the domain is not in the results (one connector reads it as `rank || 101`);
 * - `get_visibility_trend` answers `{result: [{url, se, se_name, date, visibility_score}]}`;
 * - search engines are numbered (`se_id`: 64 Google desktop, 433 Google mobile in one connector's help).
 *
 * Assumed (no public page or code shows them):
 * - `package_campaigns` answers `{result: [{campaign_id, campaign_name, campaign_domain, competitors,
 *   search_engines: [{se_id, se_name}]}]}` (the field names of add_campaign's parameters);
 * - `rank` rows carry `se_id` beside `se`/`se_name` (rank_top100's rows carry the search engine id), and
 *   `rank` takes `se_id` to narrow to one engine as `get_visibility_trend` does;
 * - failures are `{error: {code, message}}`, with HTTP 200 or an error status (see ./classify.ts).
 */

/** A list Rank Ranger may send as an array or, without `json_strict`, as an object keyed by index. */
const list = <T extends z.ZodType>(item: T) =>
  z
    .union([z.array(item), z.record(z.string(), item).transform((value) => Object.values(value))])
    .nullish()
    .transform((value) => (value ?? []) as z.infer<T>[]);

/** Answer dates as YYYY-MM-DD: Rank Ranger writes MM/DD/YYYY; an ISO date passes as it is. */
const day = z.string().transform((value, context) => {
  const us = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value.trim());
  if (us) return `${us[3]}-${us[1]}-${us[2]}`;
  const iso = /^(\d{4}-\d{2}-\d{2})/.exec(value.trim());
  if (iso?.[1]) return iso[1];
  context.addIssue({ code: "custom", message: `not a date: ${value}` });
  return z.NEVER;
});

/** A position: null when the domain is not in the results (empty, 0, "-" or absent). */
const position = z
  .unknown()
  .transform((value) => {
    const number = typeof value === "string" ? Number(value.trim() || Number.NaN) : value;
    return typeof number === "number" && Number.isFinite(number) && number > 0 ? number : null;
  })
  .nullable();

const number = z.union([z.number(), z.string()]).transform((value) => Number(value));

export const ZCampaigns = z.object({
  result: list(
    z.object({
      campaign_id: z.coerce.string(),
      campaign_name: z.string().nullish(),
      campaign_domain: z.string().nullish(),
      competitors: list(z.string()),
      search_engines: list(z.object({ se_id: z.coerce.string(), se_name: z.string().nullish() })),
    }),
  ),
});
export type Campaign = z.infer<typeof ZCampaigns>["result"][number];

export const ZRank = z.object({
  result: list(
    z.object({
      date: day,
      url: z.string().nullish(),
      keyword: z.string(),
      se: z.string().nullish(),
      se_id: z.coerce.string().nullish(),
      se_name: z.string().nullish(),
      rank: position,
    }),
  ),
});
export type RankRow = z.infer<typeof ZRank>["result"][number];

export const ZVisibility = z.object({
  result: list(
    z.object({
      date: day,
      url: z.string().nullish(),
      se: z.string().nullish(),
      se_id: z.coerce.string().nullish(),
      se_name: z.string().nullish(),
      visibility_score: number,
    }),
  ),
});
export type VisibilityRow = z.infer<typeof ZVisibility>["result"][number];
