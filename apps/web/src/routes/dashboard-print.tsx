import { Center } from "@mantine/core";
import { useParams } from "react-router";
import { ComingSoon } from "../ui/ComingSoon";
import { PageHeader } from "../ui/PageHeader";

/** /dashboards/:permalink/print (dashboard.print): no app chrome. */
export default function DashboardPrintScreen() {
  const { permalink = "" } = useParams();
  return (
    <Center>
      <div style={{ width: "100%", maxWidth: 1000 }}>
        <PageHeader eyebrow="Print view" title={permalink} />
        <ComingSoon>The printable layout of this dashboard, used for PDF export, will appear here.</ComingSoon>
      </div>
    </Center>
  );
}
