import { z } from "zod";
import { defineSettings } from "../settings";

/** SEMrush: the Standard API (https://api.semrush.com) and the unit balance host (https://www.semrush.com). */
export interface SemrushProviderConfig {
  apiUrl: string;
  unitsUrl: string;
}

declare module "../settings" {
  interface ProvidersConfig {
    semrush: SemrushProviderConfig;
  }
}

/** This provider's environment variables (its part of the server's settings, listed in `.env.example`) and what they become. */
export const semrushSettings = defineSettings({
  name: "semrush",
  env: {
    // SEMrush's Standard API (v3 reports: `?type=domain_ranks&key=…`, answers in `;`-separated CSV) and
    // the host of its free API-unit balance call (`/users/countapiunits.html`); the user's key is the login.
    SEMRUSH_API_URL: z.url().default("https://api.semrush.com"),
    SEMRUSH_UNITS_URL: z.url().default("https://www.semrush.com"),
  },
  read: (e): SemrushProviderConfig => ({ apiUrl: e.SEMRUSH_API_URL, unitsUrl: e.SEMRUSH_UNITS_URL }),
});
