import {
  HEADERS,
  type TFileUpload,
  type TOption,
  type TWidgetDataRequest,
  type TWidgetDataResponse,
  type TWidgetTypeConfig,
} from "@app/core";
import { call } from "../../lib/api";

export type WidgetDataResult = TWidgetDataResponse["data"];

/** POST /api/widgets/data: the merged table of a widget's instances for a range and its comparison range. */
export async function fetchWidgetData(body: TWidgetDataRequest, signal?: AbortSignal): Promise<WidgetDataResult> {
  return (await call("widgetData", { body }, { signal })).data;
}

/** Access of a public viewer: the dashboard's permalink and, when it is protected, its password. */
export interface PublicAccess {
  permalink: string;
  password: string | null;
}

/**
 * POST /api/dashboards/{permalink}/widgets/{widgetId}/data: a saved widget's data for a public viewer
 * (the server reads the instances from the saved dashboard; x-authorization carries the password).
 */
export async function fetchPublicWidgetData(
  access: PublicAccess,
  widgetId: string,
  body: Omit<TWidgetDataRequest, "instances" | "widgetId">,
  signal?: AbortSignal,
): Promise<WidgetDataResult> {
  const headers = access.password ? { [HEADERS.authorization]: access.password } : undefined;
  const params = { permalink: access.permalink, widgetId };
  return (await call("dashboardWidgetData", { params, body }, { signal, headers })).data;
}

/** GET /api/configs/widgets/{type}: widget types of a connector key (or the one type of a type key). */
export async function fetchWidgetTypes(type: string): Promise<TWidgetTypeConfig[]> {
  return (await call("widgetTypes", { params: { type } })).data;
}

/** Query values of a remote option list: arrays travel as repeated keys. */
export type OptionQuery = Record<string, string | string[]>;

/** GET /api/sources/{id}/{option}?<form values>: a provider-loaded option list; cancellable. */
export async function fetchSourceOptions(
  sourceId: string,
  option: string,
  query: OptionQuery,
  signal?: AbortSignal,
): Promise<TOption[]> {
  return (await call("sourceOptions", { params: { id: sourceId, option }, query }, { signal })).data;
}

/** Stored public path (what the widget keeps and shows) and its absolute URL. */
export type UploadedFile = TFileUpload;

/** POST /api/files/image: a picture for a passive upload widget. */
export async function uploadWidgetImage(file: File): Promise<UploadedFile> {
  const form = new FormData();
  form.append("file", file);
  return (await call("fileUpload", { params: { kind: "image" }, form })).data;
}

/** DELETE /api/files: removes an uploaded picture. */
export async function deleteWidgetFile(filename: string): Promise<void> {
  await call("fileDelete", { body: { filename } });
}

// What the dashboard's start asks for before the app renders (features/dashboard/early-widgets.ts).
export { startEarlyWidgetData, takeArrivedWidgetData, type WidgetRange } from "./early-data";
