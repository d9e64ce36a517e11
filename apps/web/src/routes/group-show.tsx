import { useParams } from "react-router";
import { ComingSoon } from "../ui/ComingSoon";
import { IconTarget } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

/** /groups/:campaignId (campaign.show); the title is set by the group once it loads. */
export default function GroupShowScreen() {
  const { campaignId = "" } = useParams();
  return (
    <>
      <PageHeader eyebrow="Group" title={`Group ${campaignId}`} />
      <ComingSoon icon={<IconTarget size={26} />}>
        This group's domains will be shown here with their alerts; you will switch between the last 7 and 30 days and
        snooze alerts for a week.
      </ComingSoon>
    </>
  );
}
