import type { TAutomaticReport } from "@app/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { deleteAutomaticReport } from "./api";
import { automaticReportKeys, automaticReportsQuery } from "./queries";

export function useAutomaticReports() {
  return useQuery(automaticReportsQuery());
}

export function useDeleteAutomaticReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAutomaticReport,
    onSuccess: (_result, id) => {
      queryClient.setQueryData<TAutomaticReport[]>(automaticReportKeys.all, (reports) =>
        reports?.filter((report) => report.id !== id),
      );
      void queryClient.invalidateQueries({ queryKey: automaticReportKeys.all });
    },
  });
}
