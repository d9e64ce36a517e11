import type { TAutomaticReport } from "@app/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { deleteAutomaticReport, saveAutomaticReport, sendAutomaticReport } from "./api";
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

export function useSaveAutomaticReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAutomaticReport,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: automaticReportKeys.all }),
  });
}

/** Send now; the list refreshes a few times while the delivery job runs, so its result shows up. */
export function useSendAutomaticReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendAutomaticReport,
    onSuccess: () => {
      for (const delay of [0, 3000, 8000, 20000]) {
        setTimeout(() => void queryClient.invalidateQueries({ queryKey: automaticReportKeys.all }), delay);
      }
    },
  });
}
