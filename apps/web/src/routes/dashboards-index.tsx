import { Button } from "@mantine/core";
import { Link } from "react-router";
import { RequireUser } from "../app/RequireUser";
import { ComingSoon } from "../ui/ComingSoon";
import { IconDashboard, IconPlus } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

/** /dashboards (dashboards.index) */
export default function DashboardsIndexScreen() {
  return (
    <RequireUser>
      <PageHeader
        title="Dashboards"
        description="Every reporting dashboard of your company."
        actions={
          <Button component={Link} to="/dashboards/create" leftSection={<IconPlus size={16} />}>
            Create dashboard
          </Button>
        }
      />
      <ComingSoon icon={<IconDashboard size={26} />}>
        Your dashboards will be listed here, where you can search, open, clone, archive and restore them.
      </ComingSoon>
    </RequireUser>
  );
}
