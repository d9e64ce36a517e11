import { billingStanding } from "@app/core";
import { Navigate } from "react-router";
import { RequireUser } from "../app/RequireUser";
import { useCompany } from "../features/company";
import { CreateDashboardForm } from "../features/dashboards-list";
import { PageHeader } from "../ui/PageHeader";

function DashboardsCreate() {
  const company = useCompany();
  // docs/product.md §4: without service (an expired trial, a canceled period over) nothing can be
  // created; the subscription-required page says why, and shows an admin the way to subscribe.
  if (company.data && !billingStanding(company.data, new Date()).hasService) return <Navigate to="/402" replace />;
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
