import { useState } from "react";
import { useParams } from "react-router";
import { usePageTitle, useSiteTitle } from "../app/page-title";
import { UserMenu } from "../app/shell/UserMenu";
import { DashboardScreen } from "../features/dashboard";
import { TopMessagesBar } from "../features/messages/TopMessagesBar";
import { useCurrentUser } from "../features/session/hooks";

/**
 * /dashboards/:permalink (dashboard.show): full-width dashboard; its name becomes the page title and,
 * for a public viewer, its owner's site title the rest of it.
 */
export default function DashboardShowScreen() {
  const { permalink = "" } = useParams();
  const user = useCurrentUser();
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
      userSlot={user ? <UserMenu user={user} /> : undefined}
      messagesSlot={user ? <TopMessagesBar /> : undefined}
    />
  );
}
