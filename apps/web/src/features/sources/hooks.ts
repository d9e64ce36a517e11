import type { TSource } from "@app/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { reportFailure } from "../../lib/error-reporting";
import { useRefreshPageData } from "../session/hooks";
import {
  addSourceFile,
  connectSource,
  createCredentialsSource,
  createUploadSource,
  deleteSource,
  reconnectSource,
  type TypedCredentials,
  updateCredentials,
} from "./api";
import { connectInPopup } from "./oauth-popup";
import { connectorsQuery, sourceKeys, sourcesQuery } from "./queries";

export function useSources() {
  return useQuery(sourcesQuery());
}

export function useConnectors() {
  return useQuery(connectorsQuery());
}

/** Puts a created or updated source into the cached list at once, then refetches it. */
function useStoreSource() {
  const queryClient = useQueryClient();
  return (source: TSource) => {
    queryClient.setQueryData<TSource[]>(sourceKeys.all, (sources) => {
      if (!sources) return sources;
      return sources.some((s) => s.id === source.id)
        ? sources.map((s) => (s.id === source.id ? source : s))
        : [...sources, source];
    });
    void queryClient.invalidateQueries({ queryKey: sourceKeys.all });
  };
}

/** Banner 125 (docs/product.md §4) follows invalid sources, so the page data is refreshed when one is fixed or removed. */
function useRefreshBannersIf() {
  const refreshPageData = useRefreshPageData();
  return (wasInvalid: boolean) => {
    if (wasInvalid) void refreshPageData();
  };
}

export function useConnectSource() {
  const store = useStoreSource();
  return useMutation({ mutationFn: connectSource, onSuccess: store });
}

/** A new credentials source, or (with `source`) new credentials for an existing one; banners follow. */
export function useSaveCredentials() {
  const store = useStoreSource();
  const refreshIf = useRefreshBannersIf();
  return useMutation({
    mutationFn: ({
      name,
      source,
      credentials,
    }: {
      name: string;
      source: TSource | null;
      credentials: TypedCredentials;
    }) => (source ? updateCredentials(source.id, credentials) : createCredentialsSource(name, credentials)),
    onSuccess: (saved, { source }) => {
      store(saved);
      if (source) refreshIf(source.invalid);
    },
  });
}

export function useCreateUploadSource() {
  const store = useStoreSource();
  return useMutation({
    mutationFn: ({ name, file }: { name: string; file: File }) => createUploadSource(name, file),
    onSuccess: store,
  });
}

export function useAddSourceFile() {
  const store = useStoreSource();
  const refreshIf = useRefreshBannersIf();
  return useMutation({
    mutationFn: ({ source, file }: { source: TSource; file: File }) => addSourceFile(source.id, file),
    onSuccess: (saved, { source }) => {
      store(saved);
      refreshIf(source.invalid);
    },
  });
}

export function useReconnectSource() {
  const store = useStoreSource();
  const refreshIf = useRefreshBannersIf();
  return useMutation({
    mutationFn: (source: TSource) => reconnectSource(source.id),
    onSuccess: (saved, source) => {
      store(saved);
      refreshIf(source.invalid);
    },
  });
}

export function useDeleteSource() {
  const queryClient = useQueryClient();
  const refreshIf = useRefreshBannersIf();
  return useMutation({
    mutationFn: (source: TSource) => deleteSource(source.id),
    onError: (error) => reportFailure("source.delete", error),
    onSuccess: (_result, source) => {
      queryClient.setQueryData<TSource[]>(sourceKeys.all, (sources) => sources?.filter((s) => s.id !== source.id));
      void queryClient.invalidateQueries({ queryKey: sourceKeys.all });
      refreshIf(source.invalid);
    },
  });
}

/**
 * Connects (or, with a source id, re-authorises) an OAuth source in a popup; on success the source list
 * is fetched again, and the banners too (a re-authorised source ends banner 125).
 */
export function useOAuthConnect() {
  const queryClient = useQueryClient();
  const refreshPageData = useRefreshPageData();
  return async (connector: string, sourceId: string | null, account: string | null = null) => {
    const result = await connectInPopup(connector, sourceId, account);
    if (result.ok) {
      await queryClient.invalidateQueries({ queryKey: sourceKeys.all });
      if (sourceId) void refreshPageData();
    }
    return result;
  };
}
