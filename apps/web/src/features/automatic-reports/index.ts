export { AutomaticReportsTable } from "./components/AutomaticReportsTable";
export { useAutomaticReports, useDeleteAutomaticReport } from "./hooks";
export { automaticReportKeys, automaticReportsQuery } from "./queries";
