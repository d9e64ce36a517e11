import type { TInteractiveWidget, TWidget } from "@app/core";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { type PublicAccess, type WidgetRange, widgetDataQuery } from "../widgets";

/**
 * How often the realtime view fetches widgets that no event announces: a public viewer (who has no
 * channel) all of them, a member those marked realTime. docs/product.md §9's realtime flush period, 60 s.
 */
export const REALTIME_REFRESH_MS = 60_000;

/** The widgets a realtime view fetches again on each tick. */
export function widgetsToRefresh(widgets: readonly TWidget[], everyWidget: boolean): TInteractiveWidget[] {
  return widgets.filter(
    (widget): widget is TInteractiveWidget => widget.nature === "interactive" && (everyWidget || widget.realTime),
  );
}

/** The realtime view's clock: refetches the widgets of `widgetsToRefresh` every REALTIME_REFRESH_MS. */
export function useRealtimeRefresh(options: {
  enabled: boolean;
  widgets: readonly TWidget[];
  range: WidgetRange;
  access: PublicAccess | null;
  everyWidget: boolean;
}): void {
  const queryClient = useQueryClient();
  const latest = useRef(options);
  latest.current = options;
  const { enabled } = options;
  useEffect(() => {
    if (!enabled) return;
    const timer = setInterval(() => {
      const { widgets, range, access, everyWidget } = latest.current;
      for (const widget of widgetsToRefresh(widgets, everyWidget)) {
        const { queryKey } = widgetDataQuery(widget, range, access);
        void queryClient.invalidateQueries({ queryKey, exact: true });
      }
    }, REALTIME_REFRESH_MS);
    return () => clearInterval(timer);
  }, [enabled, queryClient]);
}
