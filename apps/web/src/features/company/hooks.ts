import type { TCompany, TCompanyDelete } from "@app/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { usePageData, useRefreshPageData, useReplacePageCompany } from "../session/hooks";
import { deleteCompany, saveBillingDetails, setSenderAddress, updateCompany, verifyDomain, verifySender } from "./api";
import { companyKeys, companyQuery } from "./queries";

/** The company, shown at once from the page data and refreshed from GET /api/company. */
export function useCompany() {
  const { company } = usePageData();
  return useQuery({ ...companyQuery(), placeholderData: company ?? undefined });
}

function useStoreCompany(): (company: TCompany) => void {
  const queryClient = useQueryClient();
  const replacePageCompany = useReplacePageCompany();
  return (company) => {
    queryClient.setQueryData(companyKeys.company, company);
    replacePageCompany(company);
  };
}

/** Saves the billing details (the subscription page's section) and stores the company the server answers. */
export function useSaveBillingDetails() {
  const store = useStoreCompany();
  return useMutation({ mutationFn: saveBillingDetails, onSuccess: store });
}

export function useUpdateCompany() {
  const store = useStoreCompany();
  return useMutation({ mutationFn: updateCompany, onSuccess: store });
}

/** Cancels the subscription (keeps the account) and refreshes the global messages that follow from it. */
export function useCancelSubscription() {
  const store = useStoreCompany();
  const refreshPageData = useRefreshPageData();
  return useMutation({
    mutationFn: (cancellation: TCompanyDelete["cancellation"]) => deleteCompany({ delete: false, cancellation }),
    onSuccess: async (company) => {
      if (company) store(company);
      await refreshPageData();
    },
  });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: () => deleteCompany({ delete: true, cancellation: {} }) });
}

export function useSetSenderAddress() {
  const store = useStoreCompany();
  return useMutation({ mutationFn: setSenderAddress, onSuccess: store });
}

export function useVerifySender() {
  const store = useStoreCompany();
  return useMutation({ mutationFn: verifySender, onSuccess: store });
}

export function useVerifyDomain() {
  const store = useStoreCompany();
  return useMutation({ mutationFn: verifyDomain, onSuccess: store });
}
