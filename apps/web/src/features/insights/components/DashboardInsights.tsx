import type { TDashboardInsights, TDashboardStyles, TInsightStatement, TWidget } from "@app/core";
import { Anchor, Box, Text } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useContext, useEffect, useMemo, useState } from "react";
import { useI18n } from "../../../lib/i18n";
import { PrintModeContext, PublicAccessContext, type WidgetRange } from "../../widgets";
import { fetchDashboardInsights } from "../api";
import { setInsightLines } from "../store";
import "../insights.css";

export interface DashboardInsightsProps {
  permalink: string;
  range: WidgetRange;
  widgets: readonly TWidget[];
  /** Its `insightsSummary` is the dashboard's "Insights summary at the top" setting. */
  styles: Pick<TDashboardStyles, "insightsSummary">;
  /** Edit mode: nothing is said while the widgets are being changed. */
  edit: boolean;
}

const NOTHING: TDashboardInsights = { widgets: {}, summary: [] };

/** Moves to a widget of the dashboard and gives it focus, so a keyboard or screen-reader user lands there. */
function goToWidget(widgetId: string) {
  const card = document.querySelector<HTMLElement>(`article.dash-card[data-widget-id="${CSS.escape(widgetId)}"]`);
  if (!card) return;
  if (!card.hasAttribute("tabindex")) card.setAttribute("tabindex", "-1");
  card.scrollIntoView({ behavior: "smooth", block: "center" });
  card.focus({ preventScroll: true });
}

/**
 * The dashboard's automatic insights (docs/decisions.md, "Insights wiring: API, settings, page, PDF and e-mail"): one request for the saved widgets over the shown
 * range feeds every widget's line, and, when the dashboard's setting is on, the ranked summary at the
 * top (also the first thing on its PDF, which prints this view). Not while editing: the lines speak of
 * the saved widgets, which an edit is changing.
 */
export function DashboardInsights({ permalink, range, widgets, styles, edit: editMode }: DashboardInsightsProps) {
  // Public viewers load through the permalink with the password they gave (the grid's own context).
  const access = useContext(PublicAccessContext);
  const showSummary = styles.insightsSummary === true;
  // The saved state of the widgets that matter: a new widget, query or setting asks again.
  const shape = useMemo(
    () =>
      widgets
        .filter((widget) => widget.nature === "interactive")
        .map((widget) => `${widget.id}:${widget.hash}:${widget.nature === "interactive" && widget.hiddenInsights}`),
    [widgets],
  );
  const enabled = !editMode && shape.length > 0;
  const query = useQuery({
    queryKey: ["dashboard-insights", permalink, range, access, shape] as const,
    queryFn: ({ signal }) =>
      fetchDashboardInsights(
        permalink,
        {
          startDate: range.startDate,
          endDate: range.endDate,
          ...(range.compareStartDate && range.compareEndDate
            ? { compareStartDate: range.compareStartDate, compareEndDate: range.compareEndDate }
            : {}),
          comparison: true,
          timezone: range.timezone,
        },
        access?.password ?? null,
        signal,
      ),
    enabled,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const data = enabled ? (query.data ?? NOTHING) : NOTHING;
  // The answer whose lines the cards show. In print, until the cards have them, this is still loading:
  // the PDF is taken the moment nothing is (routes/dashboard-print.tsx).
  const [applied, setApplied] = useState<TDashboardInsights | null>(null);
  useEffect(() => {
    setInsightLines(data.widgets);
    setApplied(data);
  }, [data]);
  useEffect(() => () => setInsightLines({}), []);
  const print = useContext(PrintModeContext) !== null;
  const { t } = useI18n();
  const loading = enabled && (query.isPending || (print && applied !== data));

  if (!showSummary || editMode) {
    // Print: the cards' lines are still to come, and the PDF must not be taken before them.
    return print && loading ? <span hidden data-insights-loading="true" /> : null;
  }
  // Three to five statements: fewer is said only when fewer things moved.
  const statements: TInsightStatement[] = data.summary.slice(0, 5);
  if (!loading && statements.length === 0) return null;
  return (
    <Box
      component="section"
      className="dash-insights"
      aria-labelledby="dash-insights-title"
      data-insights-loading={loading ? "true" : "false"}
      aria-busy={loading}
    >
      <Text component="h2" id="dash-insights-title" className="dash-insights-title">
        {t("insights.title")}
      </Text>
      {loading ? (
        <Text fz="sm" className="dash-muted">
          {t("insights.reading")}
        </Text>
      ) : (
        <ol className="dash-insights-list">
          {statements.map((statement) => (
            <li key={`${statement.widgetId}|${statement.metricKey}`} data-tone={statement.tone}>
              <Anchor
                href={`#widget-${statement.widgetId}`}
                className="dash-insights-link"
                onClick={(event) => {
                  event.preventDefault();
                  goToWidget(statement.widgetId);
                }}
              >
                {statement.sentence}
              </Anchor>
            </li>
          ))}
        </ol>
      )}
    </Box>
  );
}
