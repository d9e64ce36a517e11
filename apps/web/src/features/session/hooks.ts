import type { TCompany, TPageData, TUser } from "@app/core";
import { useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useCallback } from "react";
import { pageDataKey, pageDataQuery } from "./page-data";

/** The page data of docs/product.md §3 (current user, company, messages, site title, config). */
export function usePageData(): TPageData {
  // The cache is seeded before the first render (see main.tsx), so this never suspends.
  return useSuspenseQuery(pageDataQuery()).data;
}

export function useCurrentUser(): TUser | null {
  return usePageData().user;
}

export function useIsAdmin(): boolean {
  return useCurrentUser()?.roleName === "admin";
}

/** Replaces the current user in the page data (docs/product.md §7: PUT /api/users/{id} on oneself). */
export function useReplaceCurrentUser(): (user: TUser) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (user: TUser) => {
      queryClient.setQueryData<TPageData>(pageDataKey, (data) =>
        data && data.user?.id === user.id ? { ...data, user } : data,
      );
    },
    [queryClient],
  );
}

/** Replaces the company in the page data and follows its site title. */
export function useReplacePageCompany(): (company: TCompany) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (company: TCompany) => {
      queryClient.setQueryData<TPageData>(pageDataKey, (data) =>
        data ? { ...data, company, siteTitle: company.siteTitle || data.siteTitle } : data,
      );
    },
    [queryClient],
  );
}

/** Refetches the page data (global messages and company flags change with billing actions). */
export function useRefreshPageData(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: pageDataKey }), [queryClient]);
}
