import { RequireUser } from "../app/RequireUser";
import { ComingSoon } from "../ui/ComingSoon";
import { IconDashboard } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

/** /dashboards/create (dashboards.create) */
export default function DashboardsCreateScreen() {
  return (
    <RequireUser>
      <PageHeader title="Create Dashboard" description="Start from a template or from a blank dashboard." />
      <ComingSoon icon={<IconDashboard size={26} />}>
        Here you will name a new dashboard, pick a template for your sources and choose its date range.
      </ComingSoon>
    </RequireUser>
  );
}
