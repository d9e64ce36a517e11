import { ComingSoon } from "../ui/ComingSoon";
import { IconReceipt } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

/** /company/invoices (admins only) */
export default function CompanyInvoicesScreen() {
  return (
    <>
      <PageHeader title="Invoices" description="Your billing history." />
      <ComingSoon icon={<IconReceipt size={26} />}>Your invoices will be listed here to view and download.</ComingSoon>
    </>
  );
}
