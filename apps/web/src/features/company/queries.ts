import { queryOptions } from "@tanstack/react-query";
import { fetchCompany } from "./api";

export const companyKeys = {
  company: ["company"] as const,
};

export function companyQuery() {
  return queryOptions({ queryKey: companyKeys.company, queryFn: fetchCompany });
}
