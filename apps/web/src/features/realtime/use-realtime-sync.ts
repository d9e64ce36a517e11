import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { usePageData } from "../session/hooks";

/**
 * Keeps a signed-in member's page in step with their company (docs/product.md §4 realtime): connects once signed
 * in, disconnects on sign-out or a change of company. Socket.IO loads only then, never for a public viewer.
 */
export function useRealtimeSync(): void {
  const queryClient = useQueryClient();
  const { user, company } = usePageData();
  const companyId = user ? (company?.id ?? null) : null;
  useEffect(() => {
    if (!companyId) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    void import("./start").then(({ startCompanyRealtime }) => {
      if (!cancelled) stop = startCompanyRealtime(queryClient, companyId);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [queryClient, companyId]);
}
