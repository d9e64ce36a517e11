import { queryOptions } from "@tanstack/react-query";
import { fetchAutomaticReports } from "./api";

export const automaticReportKeys = {
  all: ["automatic-reports"] as const,
};

export function automaticReportsQuery() {
  return queryOptions({ queryKey: automaticReportKeys.all, queryFn: fetchAutomaticReports });
}
