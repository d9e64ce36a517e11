import type { TPasskey } from "@app/core";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRefreshPageData } from "../session/hooks";
import { twoFactorKey } from "../two-factor/api";
import { createPasskey, fetchPasskeys, registrationOptions, removePasskey, renamePasskey } from "./api";
import { createCredential } from "./browser";

export const passkeyKeys = { all: ["passkeys"] as const };

export function usePasskeys() {
  return useQuery(queryOptions({ queryKey: passkeyKeys.all, queryFn: fetchPasskeys }));
}

/** Options from the server, the browser's prompt, then the answer and its name back to the server. */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  const refreshPageData = useRefreshPageData();
  return useMutation({
    mutationFn: async (name: string) =>
      createPasskey({ name, response: await createCredential(await registrationOptions()) }),
    onSuccess: ({ recoveryCodes: _shownOnce, ...passkey }) => {
      queryClient.setQueryData<TPasskey[]>(passkeyKeys.all, (list) => (list ? [...list, passkey] : list));
      void queryClient.invalidateQueries({ queryKey: passkeyKeys.all });
      // A first passkey may bring recovery codes: the two-factor settings count them. It may also meet
      // the company's two-factor requirement, which the page data carries (the app's only-set-up guard).
      void queryClient.invalidateQueries({ queryKey: twoFactorKey });
      void refreshPageData();
    },
  });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => renamePasskey(id, name),
    onSuccess: (passkey) => {
      queryClient.setQueryData<TPasskey[]>(passkeyKeys.all, (list) =>
        list?.map((p) => (p.id === passkey.id ? passkey : p)),
      );
    },
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: Parameters<typeof removePasskey>[1] }) => removePasskey(id, body),
    onSuccess: (_result, { id }) => {
      queryClient.setQueryData<TPasskey[]>(passkeyKeys.all, (list) => list?.filter((p) => p.id !== id));
      void queryClient.invalidateQueries({ queryKey: passkeyKeys.all });
      // The last one's recovery codes go with it.
      void queryClient.invalidateQueries({ queryKey: twoFactorKey });
    },
  });
}
