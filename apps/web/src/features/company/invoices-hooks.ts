import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { downloadInvoice, fetchOrders } from "./invoices-api";
import { companyKeys } from "./queries";

/**
 * Under the company's key: a CompanySubscriptionUpdated push (a payment, a failed charge) invalidates
 * the company and with it this list, so a new invoice appears without a reload.
 */
export const ordersKey = [...companyKeys.company, "orders"] as const;

export function ordersQuery() {
  return queryOptions({ queryKey: ordersKey, queryFn: fetchOrders });
}

export function useOrders() {
  return useQuery(ordersQuery());
}

export function useDownloadInvoice() {
  return useMutation({ mutationFn: downloadInvoice });
}
