import { useState } from "react";
import { useParams, useSearchParams } from "react-router";
import { usePageTitle, useSiteTitle } from "../app/page-title";
import { DashboardScreen } from "../features/dashboard";
import { setEmbedToken } from "../lib/api";

/**
 * /dashboards/:permalink/embed?token=… (dashboard.embedded): the dashboard read-only and without chrome
 * inside another site's iframe. The signed token grants it (the only page the server lets others frame);
 * a refused token shows the expired-link state.
 */
export default function DashboardEmbeddedScreen() {
  const { permalink = "" } = useParams();
  const [search] = useSearchParams();
  // Set before the first request leaves (the screen's first render starts the query).
  useState(() => setEmbedToken(search.get("token") ?? ""));
  const [title, setTitle] = useState<string | null>(null);
  const [siteTitle, setSiteTitle] = useState<string | null>(null);
  usePageTitle(title);
  useSiteTitle(siteTitle);
  return (
    <DashboardScreen key={permalink} permalink={permalink} onTitle={setTitle} onSiteTitle={setSiteTitle} embedded />
  );
}
