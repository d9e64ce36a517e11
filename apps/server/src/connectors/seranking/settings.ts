import { z } from "zod";
import { defineSettings } from "../settings";

/** SE Ranking's Project API: https://api4.seranking.com. */
export interface SerankingProviderConfig {
  apiUrl: string;
}

declare module "../settings" {
  interface ProvidersConfig {
    seranking: SerankingProviderConfig;
  }
}

/** This provider's environment variables (its part of the server's settings, listed in `.env.example`) and what they become. */
export const serankingSettings = defineSettings({
  name: "seranking",
  env: {
    // SE Ranking's Project API (rank tracking projects; the user's API key is the login, sent as
    // `Authorization: Token …`).
    SERANKING_API_URL: z.url().default("https://api4.seranking.com"),
  },
  read: (e): SerankingProviderConfig => ({ apiUrl: e.SERANKING_API_URL }),
});
