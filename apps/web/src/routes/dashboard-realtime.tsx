import { useParams } from "react-router";
import { ComingSoon } from "../ui/ComingSoon";
import { IconClock } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

/** /dashboards/:permalink/realtime (dashboard.realTime) */
export default function DashboardRealtimeScreen() {
  const { permalink = "" } = useParams();
  return (
    <>
      <PageHeader eyebrow="Realtime" title={permalink} />
      <ComingSoon icon={<IconClock size={26} />}>
        The realtime view of this dashboard will update its widgets live as new data arrives.
      </ComingSoon>
    </>
  );
}
