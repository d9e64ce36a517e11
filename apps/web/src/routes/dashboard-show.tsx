import { useParams } from "react-router";
import { ComingSoon } from "../ui/ComingSoon";
import { IconChart } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

/** /dashboards/:permalink (dashboard.show); the title is set by the dashboard once it loads. */
export default function DashboardShowScreen() {
  const { permalink = "" } = useParams();
  return (
    <>
      <PageHeader eyebrow="Dashboard" title={permalink} />
      <ComingSoon icon={<IconChart size={26} />}>
        This dashboard will show its widgets here, with the date-range picker, edit mode and the share menu (PDF, Copy
        URL and Mail reporting).
      </ComingSoon>
    </>
  );
}
