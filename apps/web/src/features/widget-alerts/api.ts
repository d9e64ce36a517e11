import type { TOpenWidgetAlert, TWidgetAlert } from "@app/core";
import { call } from "../../lib/api";
import { type AlertFormValues, alertPayload } from "./form-model";

/** Alerts on a widget's metrics (docs/decisions.md, "Alerts on any widget metric"): the widget's rules, by dashboard id and widget id. */
export async function fetchWidgetAlerts(dashboardId: string, widgetId: string): Promise<TWidgetAlert[]> {
  return (await call("widgetAlertsList", { params: { id: dashboardId, widgetId } })).data;
}

/** The dashboard's firing alerts, for the badges on its cards. */
export async function fetchOpenWidgetAlerts(dashboardId: string): Promise<TOpenWidgetAlert[]> {
  return (await call("widgetAlertsOpen", { params: { id: dashboardId } })).data;
}

export async function saveWidgetAlert(input: {
  id: string | null;
  dashboardId: string;
  widgetId: string;
  values: AlertFormValues;
}): Promise<TWidgetAlert> {
  // The contract's input type is what zod parses *to*; the form sends what it parses *from* (recipients as text).
  const body = alertPayload(input.values) as never;
  return input.id
    ? (await call("widgetAlertUpdate", { params: { id: input.id }, body })).data
    : (await call("widgetAlertCreate", { params: { id: input.dashboardId, widgetId: input.widgetId }, body })).data;
}

export async function deleteWidgetAlert(id: string): Promise<void> {
  await call("widgetAlertDelete", { params: { id } });
}

/** Snooze a week (`on`), or end the snooze now. */
export async function snoozeWidgetAlert(id: string, on: boolean): Promise<TWidgetAlert> {
  return on
    ? (await call("widgetAlertSnooze", { params: { id } })).data
    : (await call("widgetAlertUnsnooze", { params: { id } })).data;
}
