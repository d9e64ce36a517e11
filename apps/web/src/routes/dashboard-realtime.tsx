import { useState } from "react";
import { useParams } from "react-router";
import { usePageTitle, useSiteTitle } from "../app/page-title";
import { DashboardScreen } from "../features/dashboard";
import { RealtimeIndicator } from "../features/realtime";

const REALTIME = { indicator: (polling: boolean) => <RealtimeIndicator polling={polling} /> };

/**
 * /dashboards/:permalink/realtime (dashboard.realTime): the dashboard read-only and without chrome,
 * its widgets refreshing as their data changes (the company channel for members, a clock for others).
 */
export default function DashboardRealtimeScreen() {
  const { permalink = "" } = useParams();
  const [title, setTitle] = useState<string | null>(null);
  const [siteTitle, setSiteTitle] = useState<string | null>(null);
  usePageTitle(title);
  useSiteTitle(siteTitle);
  return (
    <DashboardScreen
      key={permalink}
      permalink={permalink}
      onTitle={setTitle}
      onSiteTitle={setSiteTitle}
      realtime={REALTIME}
    />
  );
}
