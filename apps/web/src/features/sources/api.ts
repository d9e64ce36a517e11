import type { TConnector, TSource } from "@app/core";
import { ApiError, api } from "../../lib/api";

export async function fetchConnectors(): Promise<TConnector[]> {
  return (await api<{ data: TConnector[] }>("/api/configs/connectors")).data;
}

export async function fetchSources(): Promise<TSource[]> {
  return (await api<{ data: TSource[] }>("/api/sources")).data;
}

/** Connects a source that needs no upload, e.g. Demo data: POST /api/sources {name}. */
export async function connectSource(name: string): Promise<TSource> {
  return (await api<{ data: TSource }>("/api/sources", { method: "POST", json: { name } })).data;
}

/** Creates an upload source (name=csv) from its first file, sent as multipart. */
export async function createUploadSource(name: string, file: File): Promise<TSource> {
  const form = new FormData();
  form.append("name", name);
  form.append("file", file);
  return (await api<{ data: TSource }>("/api/sources", { method: "POST", form })).data;
}

/** Adds a file to an existing upload source: PUT /api/sources/{id} multipart with `file`. */
export async function addSourceFile(id: string, file: File): Promise<TSource> {
  const form = new FormData();
  form.append("file", file);
  return (await api<{ data: TSource }>(`/api/sources/${encodeURIComponent(id)}`, { method: "PUT", form })).data;
}

/** Re-authorises a source that needs no credentials (clears its invalid flag). */
export async function reconnectSource(id: string): Promise<TSource> {
  return (await api<{ data: TSource }>(`/api/sources/${encodeURIComponent(id)}`, { method: "PUT", json: {} })).data;
}

/** docs/product.md §7: a 404 means the source is already gone, which is what the user wanted. */
export async function deleteSource(id: string): Promise<void> {
  try {
    await api<undefined>(`/api/sources/${encodeURIComponent(id)}`, { method: "DELETE" });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return;
    throw error;
  }
}
