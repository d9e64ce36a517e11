import { RequireUser } from "../app/RequireUser";
import { useCompany } from "../features/company";
import { CreateDashboardForm } from "../features/dashboards-list";
import { PageHeader } from "../ui/PageHeader";

function DashboardsCreate() {
  const company = useCompany();
  return (
    <>
      <PageHeader
        title="Create Dashboard"
        description="Name it, then start from a template or from a blank dashboard."
      />
      <CreateDashboardForm limitReached={company.data ? !company.data.canCreateDashboard : false} />
    </>
  );
}

/** /dashboards/create (dashboards.create) */
export default function DashboardsCreateScreen() {
  return (
    <RequireUser>
      <DashboardsCreate />
    </RequireUser>
  );
}
