import { ComingSoon } from "../ui/ComingSoon";
import { IconTarget } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

/** /groups/create (campaigns.create, admins only) */
export default function GroupsCreateScreen() {
  return (
    <>
      <PageHeader title="Create Group" description="Group the domains you want to track together." />
      <ComingSoon icon={<IconTarget size={26} />}>
        Here you will name a group and add the first domains it should track.
      </ComingSoon>
    </>
  );
}
