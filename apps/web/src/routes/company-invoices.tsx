import { Alert } from "@mantine/core";
import { InvoicesList, useOrders } from "../features/company";
import { errorMessage } from "../lib/api";
import { PageLoader } from "../ui/AppLoader";
import { PageHeader } from "../ui/PageHeader";

/** /company/invoices (admins only): every payment of the subscription, each with its PDF. */
export default function CompanyInvoicesScreen() {
  const orders = useOrders();
  return (
    <>
      <PageHeader title="Invoices" description="Your billing history: download any invoice as a PDF." />
      {orders.data ? (
        <InvoicesList orders={orders.data} />
      ) : orders.isPending ? (
        <PageLoader />
      ) : (
        <Alert color="red">{errorMessage(orders.error)}</Alert>
      )}
    </>
  );
}
