/**
 * The query keys this feature caches its server state under: public, for features that update that
 * state (the realtime channel). A file of its own, so importing the keys loads none of the feature.
 */
export const campaignKeys = {
  all: ["campaigns"] as const,
  list: ["campaigns", "list"] as const,
  detail: (id: string) => ["campaigns", "detail", id] as const,
  sources: ["campaigns", "sources"] as const,
  alertSettings: ["campaigns", "alert-settings"] as const,
};
