import type { TDashboardInsights, TWidget } from "@app/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { createContext, useContext } from "react";
import { type PublicAccess, requestPeriod, type WidgetRange } from "../widgets";
import { fetchDashboardInsights } from "./api";

const NOTHING: TDashboardInsights = { widgets: {}, summary: [] };

export interface DashboardInsightsState {
  /** The answer shown (nothing while disabled or not yet answered). */
  data: TDashboardInsights;
  /** Asked and not answered yet. */
  loading: boolean;
}

/**
 * The dashboard's one insights request (docs/decisions.md "Per-card insight lines from the insights
 * answer"): asked by the screen itself, not by its lazily loaded summary, so the cards read their lines
 * from the answer in the very render that has it, the server's render of a public view included (whose
 * page runs no app until the reader acts on it, so nothing filled in an effect would ever show there).
 */
export function useDashboardInsights({
  permalink,
  range,
  widgets,
  access,
  enabled: wanted,
}: {
  permalink: string;
  range: WidgetRange;
  widgets: readonly TWidget[];
  /** A public viewer's permalink and password (sent as the widgets' requests send it). */
  access: PublicAccess | null;
  /** False while editing (the lines speak of the saved widgets) or before the owner's cards have drawn. */
  enabled: boolean;
}): DashboardInsightsState {
  // The saved state of the widgets that matter: a new widget, query or setting asks again (the key is
  // compared by its hash, so a new array each render is the same key).
  const shape = widgets
    .filter((widget) => widget.nature === "interactive")
    .map((widget) => `${widget.id}:${widget.hash}:${widget.nature === "interactive" && widget.hiddenInsights}`);
  const enabled = wanted && shape.length > 0;
  const query = useQuery({
    queryKey: ["dashboard-insights", permalink, range, access, shape] as const,
    queryFn: ({ signal }) => fetchDashboardInsights(permalink, requestPeriod(range), access?.password ?? null, signal),
    enabled,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
    retry: false,
  });
  return { data: enabled ? (query.data ?? NOTHING) : NOTHING, loading: enabled && query.isPending };
}

/** Each widget's insights line by widget id, from the dashboard's insights answer. */
export const InsightLinesContext = createContext<Readonly<Record<string, string | null>>>({});

/** The insights line of a widget, or null when there is nothing to say (or not yet). */
export function useInsightLine(widgetId: string): string | null {
  return useContext(InsightLinesContext)[widgetId] ?? null;
}
