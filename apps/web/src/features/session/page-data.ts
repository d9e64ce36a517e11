import type { TPageData } from "@app/core";
import { queryOptions } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { setIdentification } from "../../lib/identification";

export const pageDataKey = ["page-data"] as const;

/** The page data the server injected into index.html as <script id="page-data">, if any. */
export function readInjectedPageData(): TPageData | null {
  const element = document.getElementById("page-data");
  if (!element?.textContent) return null;
  try {
    return JSON.parse(element.textContent) as TPageData;
  } catch {
    return null;
  }
}

export function fetchPageData(): Promise<TPageData> {
  return call("pageData");
}

/** Page data at start-up: injected by the server, or fetched (the Vite dev server does not inject it). */
export async function loadInitialPageData(): Promise<TPageData> {
  const pageData = readInjectedPageData() ?? (await fetchPageData());
  setIdentification(pageData.identification);
  return pageData;
}

/** Page data lives in the query cache (seeded at start-up) so a refetch after billing or profile changes updates every reader. */
export function pageDataQuery() {
  return queryOptions({
    queryKey: pageDataKey,
    queryFn: async () => {
      const pageData = await fetchPageData();
      setIdentification(pageData.identification);
      return pageData;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}
