import { changeTone, notAvailableIn } from "@app/core";
import { Text, type TextProps } from "@mantine/core";
import { useI18n } from "../../../lib/i18n";
import { formatChangeText } from "../data/view-model";

interface Props extends TextProps {
  change: number | null;
  /** docs/product.md §3: green/red highlight unless the widget hides it. */
  highlight: boolean;
  /** Declared by the connector (average position, bounce rate…): a fall is shown in green. */
  lowerIsBetter?: boolean;
}

/**
 * A change against the comparison period: '▲ 12.3%' / '▼ 4%', green when it is good news and red when
 * bad (inversely for lower-is-better metrics), 'N/A' when unknown.
 */
export function ChangeText({ change, highlight, lowerIsBetter = false, ...props }: Props) {
  const { locale, t } = useI18n();
  const known = change !== null && Number.isFinite(change);
  const direction = !known || change === 0 ? "flat" : change > 0 ? "up" : "down";
  const tone = changeTone(change, lowerIsBetter);
  const colour =
    !highlight || tone === "flat" ? "var(--dash-muted)" : tone === "good" ? "var(--dash-up)" : "var(--dash-down)";
  const arrow = direction === "up" ? "▲ " : direction === "down" ? "▼ " : "";
  return (
    <Text
      component="span"
      fz="xs"
      fw={600}
      {...props}
      style={{ color: colour, whiteSpace: "nowrap", fontVariantNumeric: "tabular-nums" }}
      data-change={direction}
      data-tone={tone}
      title={t("widget.changeHint")}
    >
      {arrow}
      {known ? formatChangeText(Math.abs(change), locale).replace(/^\+/, "") : notAvailableIn(locale)}
    </Text>
  );
}
