import { AuditLog } from "../features/audit";
import { PageHeader } from "../ui/PageHeader";

/** /company/audit-log (admins only): who did what, when and from where (docs/product.md §3 "Audit events"). */
export default function CompanyAuditLogScreen() {
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who signed in, shared, connected or changed what in your company, and from which address."
      />
      <AuditLog />
    </>
  );
}
