import { Alert } from "@mantine/core";
import { AutomaticReportsTable, useAutomaticReports } from "../features/automatic-reports";
import { errorMessage } from "../lib/api";
import { PageLoader } from "../ui/AppLoader";
import { PageHeader } from "../ui/PageHeader";

/** /company/automatic-reports (every user of the company, docs/product.md §6) */
export default function CompanyAutomaticReportsScreen() {
  const reports = useAutomaticReports();
  return (
    <>
      <PageHeader title="Automatic Reports" description="Dashboards e-mailed to your clients on a schedule." />
      {reports.data ? (
        <AutomaticReportsTable reports={reports.data} />
      ) : reports.isPending ? (
        <PageLoader />
      ) : (
        <Alert color="red">{errorMessage(reports.error)}</Alert>
      )}
    </>
  );
}
