import type { TUser, TUserUpdate } from "@app/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCurrentUser, useReplaceCurrentUser } from "../session/hooks";
import { deleteUser, inviteUser, updateUser } from "./api";
import { userKeys, usersQuery } from "./queries";

export function useUsers(enabled = true) {
  return useQuery({ ...usersQuery(), enabled });
}

export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteUser,
    onSuccess: (user) => {
      queryClient.setQueryData<TUser[]>(userKeys.all, (users) => (users ? [...users, user] : users));
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}

/** PUT /api/users/{id}; an update of oneself also replaces the current user (docs/product.md §7). */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  const current = useCurrentUser();
  const replaceCurrentUser = useReplaceCurrentUser();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TUserUpdate }) => updateUser(id, body),
    onSuccess: (user) => {
      queryClient.setQueryData<TUser[]>(userKeys.all, (users) => users?.map((u) => (u.id === user.id ? user : u)));
      if (current?.id === user.id) replaceCurrentUser(user);
    },
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: (_result, id) => {
      queryClient.setQueryData<TUser[]>(userKeys.all, (users) => users?.filter((u) => u.id !== id));
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}
