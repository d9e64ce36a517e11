import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { type AuditFilters, downloadAuditCsv, fetchAuditLog } from "./api";

export const auditKeys = { log: ["company", "audit-log"] as const };

/** One page of the log for the filters; the previous page stays on screen while the next loads. */
export function useAuditLog(filters: AuditFilters) {
  return useQuery({
    queryKey: [...auditKeys.log, filters],
    queryFn: () => fetchAuditLog(filters),
    placeholderData: keepPreviousData,
  });
}

export function useDownloadAuditCsv() {
  return useMutation({ mutationFn: downloadAuditCsv });
}
