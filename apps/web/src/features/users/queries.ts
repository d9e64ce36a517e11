import { queryOptions } from "@tanstack/react-query";
import { fetchUsers } from "./api";

export const userKeys = {
  all: ["users"] as const,
};

export function usersQuery() {
  return queryOptions({ queryKey: userKeys.all, queryFn: fetchUsers });
}
