import { z } from "zod";
import { defineSettings } from "../settings";

/** Rank Ranger's Reporting API v2: https://www.rankranger.com (paths start with /api/v2/). */
export interface RankRangerProviderConfig {
  apiUrl: string;
}

declare module "../settings" {
  interface ProvidersConfig {
    rankranger: RankRangerProviderConfig;
  }
}

/** This provider's environment variables (its part of the server's settings, listed in `.env.example`) and what they become. */
export const rankrangerSettings = defineSettings({
  name: "rankranger",
  env: {
    // Rank Ranger's Reporting API v2 (now Similarweb Rank Tracker; `/api/v2/?rank&key=…`, the user's API
    // key is the login and rides in the query).
    RANKRANGER_API_URL: z.url().default("https://www.rankranger.com"),
  },
  read: (e): RankRangerProviderConfig => ({ apiUrl: e.RANKRANGER_API_URL }),
});
