import { CreateGroupForm } from "../features/campaigns";
import { PageHeader } from "../ui/PageHeader";

/** /groups/create (campaigns.create, admins only) */
export default function GroupsCreateScreen() {
  return (
    <>
      <PageHeader title="Create Group" description="Group the domains you want to track together." />
      <CreateGroupForm />
    </>
  );
}
