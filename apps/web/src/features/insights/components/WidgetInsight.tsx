import { Text } from "@mantine/core";
import { useI18n } from "../../../lib/i18n";
import { useInsightLine } from "../query";

/** The "Insights" line under an interactive widget's title (docs/decisions.md, "Insights wiring: API, settings, page, PDF and e-mail"), only when there is one. */
export function WidgetInsight({ widgetId }: { widgetId: string }) {
  const line = useInsightLine(widgetId);
  const { t } = useI18n();
  if (!line) return null;
  return (
    // The whole line in its title too: a one-row card with goals shows it on one line, cut short
    // (dashboard.css, "A one-row card with goals").
    <Text className="dash-insight-line" fz="xs" data-testid="widget-insight" title={`${t("insights.title")}: ${line}`}>
      <span className="dash-insight-label">{t("insights.title")}: </span>
      {line}
    </Text>
  );
}
