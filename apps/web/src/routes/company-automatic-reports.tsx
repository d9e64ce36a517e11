import { ComingSoon } from "../ui/ComingSoon";
import { IconMail } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

/** /company/automatic-reports */
export default function CompanyAutomaticReportsScreen() {
  return (
    <>
      <PageHeader title="Automatic Reports" description="Dashboards e-mailed to your clients on a schedule." />
      <ComingSoon icon={<IconMail size={26} />}>
        Your scheduled reports will be listed here with their recipients, weekly or monthly timing and date range.
      </ComingSoon>
    </>
  );
}
