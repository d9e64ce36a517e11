import type { TDashboardStyles, TInsightStatement } from "@app/core";
import { Anchor, Box, Text } from "@mantine/core";
import { useContext } from "react";
import { useI18n } from "../../../lib/i18n";
import { PrintModeContext } from "../../widgets";
import type { DashboardInsightsState } from "../query";
import "../insights.css";

export interface DashboardInsightsProps {
  /** The dashboard's insights answer (query.ts), asked by the screen. */
  insights: DashboardInsightsState;
  /** Its `insightsSummary` is the dashboard's "Insights summary at the top" setting. */
  styles: Pick<TDashboardStyles, "insightsSummary">;
  /** Edit mode: nothing is said while the widgets are being changed. */
  edit: boolean;
}

/** Moves to a widget of the dashboard and gives it focus, so a keyboard or screen-reader user lands there. */
function goToWidget(widgetId: string) {
  const card = document.querySelector<HTMLElement>(`article.dash-card[data-widget-id="${CSS.escape(widgetId)}"]`);
  if (!card) return;
  if (!card.hasAttribute("tabindex")) card.setAttribute("tabindex", "-1");
  card.scrollIntoView({ behavior: "smooth", block: "center" });
  card.focus({ preventScroll: true });
}

/**
 * The dashboard's automatic insights summary (docs/decisions.md, "Insights wiring: API, settings, page, PDF
 * and e-mail"): when the dashboard's setting is on, the ranked statements of the screen's one insights
 * answer at the top (also the first thing on its PDF, which prints this view); the same answer gives each
 * card its line (query.ts). Not while editing: the lines speak of the saved widgets, which an edit is
 * changing.
 */
export function DashboardInsights({ insights, styles, edit: editMode }: DashboardInsightsProps) {
  const showSummary = styles.insightsSummary === true;
  const { data, loading } = insights;
  // The PDF is taken the moment nothing is loading (routes/dashboard-print.tsx): the cards' lines come in
  // the same render as this answer, so its loading is theirs.
  const print = useContext(PrintModeContext) !== null;
  const { t } = useI18n();

  if (!showSummary || editMode) {
    // Print: the cards' lines are still to come, and the PDF must not be taken before them.
    return print && loading ? <span hidden data-insights-loading="true" /> : null;
  }
  // Three to five statements: fewer is said only when fewer things moved.
  const statements: TInsightStatement[] = data.summary.slice(0, 5);
  // The goals counted ("2 of 5 goals on track; Revenue 12 % short"), in the dashboard's language, the line
  // the report e-mail opens with (docs/decisions.md, "Goals in the insights summary on screen").
  const goals = data.goals ?? null;
  if (!loading && statements.length === 0 && goals === null) return null;
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
        <>
          {goals !== null ? (
            <Text component="p" className="dash-insights-goals" data-testid="insights-goals">
              {t("dashboard.insightsGoals", { line: goals })}
            </Text>
          ) : null}
          {statements.length > 0 ? (
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
          ) : null}
        </>
      )}
    </Box>
  );
}
