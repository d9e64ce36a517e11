import { Text, type TextProps } from "@mantine/core";
import { formatChangeText } from "../data/view-model";

interface Props extends TextProps {
  change: number | null;
  /** Spec: green/red highlight unless the widget hides it. */
  highlight: boolean;
}

/** A change against the comparison period: '▲ 12.3%' in green, '▼ 4%' in red, 'N/A' when unknown. */
export function ChangeText({ change, highlight, ...props }: Props) {
  const known = change !== null && Number.isFinite(change);
  const direction = !known || change === 0 ? "flat" : change > 0 ? "up" : "down";
  const colour =
    !highlight || direction === "flat"
      ? "var(--dash-muted)"
      : direction === "up"
        ? "var(--dash-up)"
        : "var(--dash-down)";
  const arrow = direction === "up" ? "▲ " : direction === "down" ? "▼ " : "";
  return (
    <Text
      component="span"
      fz="xs"
      fw={600}
      {...props}
      style={{ color: colour, whiteSpace: "nowrap", fontVariantNumeric: "tabular-nums" }}
      data-change={direction}
      title="Change against the comparison period"
    >
      {arrow}
      {known ? formatChangeText(Math.abs(change)).replace(/^\+/, "") : "N/A"}
    </Text>
  );
}
