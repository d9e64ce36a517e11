import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { endOtherSessions, endSession, fetchSignedInSessions } from "./api";

export const sessionKeys = {
  all: ["signed-in-sessions"] as const,
};

export function signedInSessionsQuery() {
  return queryOptions({ queryKey: sessionKeys.all, queryFn: fetchSignedInSessions });
}

export function useSignedInSessions() {
  return useQuery(signedInSessionsQuery());
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
