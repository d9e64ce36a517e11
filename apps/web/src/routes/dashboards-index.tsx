import { Button } from "@mantine/core";
import { useCallback, useMemo } from "react";
import { Link, useSearchParams } from "react-router";
import { RequireUser } from "../app/RequireUser";
import { SocialSignInNotice } from "../features/auth";
import { useCompany } from "../features/company";
import { AllowanceMeter, type DashboardBrowseState, DashboardsBrowser } from "../features/dashboards-list";
import { IconPlus } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

/** Reads the list's search, status and page from the address, so a reload or a shared link keeps them. */
function useBrowseState(): [DashboardBrowseState, (state: DashboardBrowseState) => void] {
  const [params, setParams] = useSearchParams();
  const search = params.get("search") ?? "";
  const status = params.get("status") === "archived" ? "archived" : "active";
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const state = useMemo<DashboardBrowseState>(() => ({ search, status, page }), [search, status, page]);
  const setState = useCallback(
    (next: DashboardBrowseState) => {
      const query = new URLSearchParams();
      if (next.search) query.set("search", next.search);
      if (next.status === "archived") query.set("status", "archived");
      if (next.page > 1) query.set("page", String(next.page));
      setParams(query, { replace: true });
    },
    [setParams],
  );
  return [state, setState];
}

function DashboardsIndex() {
  const company = useCompany();
  const [state, setState] = useBrowseState();
  return (
    <>
      <PageHeader
        title="Dashboards"
        description="Every reporting dashboard of your company."
        actions={
          <>
            {company.data ? <AllowanceMeter company={company.data} /> : null}
            <Button component={Link} to="/dashboards/create" leftSection={<IconPlus size={16} />}>
              Create dashboard
            </Button>
          </>
        }
      />
      <SocialSignInNotice />
      <DashboardsBrowser state={state} onStateChange={setState} />
    </>
  );
}

/** /dashboards (dashboards.index) */
export default function DashboardsIndexScreen() {
  return (
    <RequireUser>
      <DashboardsIndex />
    </RequireUser>
  );
}
