import { Stack, Text, Tooltip, VisuallyHidden } from "@mantine/core";
import { formatDay, type MetricCell } from "../view-model";

const TONE_COLOUR = { good: "teal.8", bad: "red.7", flat: "dimmed" } as const;
const ARROW = { up: "▲", down: "▼" } as const;
const DIRECTION = { up: "up", down: "down" } as const;

/**
 * A metric's current value over its change. The change is coloured by its tone (green good news, red
 * bad, grey flat) and always carries an arrow or "N/A", so the colour is never the only sign. An "N/A"
 * says why in its tooltip (reachable by keyboard) and in the cell's text for screen readers.
 */
export function MetricValue({ cell, rowAsOf = null }: { cell: MetricCell; rowAsOf?: string | null }) {
  const content = (
    <Stack
      gap={2}
      align="flex-end"
      data-metric={cell.key}
      tabIndex={cell.notAvailable ? 0 : undefined}
      data-not-available={cell.notAvailable ? "true" : undefined}
    >
      <Text size="sm" fw={500} style={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}>
        {cell.value}
      </Text>
      <Text
        size="xs"
        fw={600}
        c={TONE_COLOUR[cell.tone]}
        style={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}
        data-change={cell.arrow ?? "flat"}
        data-tone={cell.tone}
      >
        {cell.arrow ? (
          <>
            <span aria-hidden>{ARROW[cell.arrow]} </span>
            <VisuallyHidden>{DIRECTION[cell.arrow]} </VisuallyHidden>
          </>
        ) : null}
        {cell.change}
        {cell.tone !== "flat" ? <VisuallyHidden> ({cell.tone === "good" ? "good" : "bad"})</VisuallyHidden> : null}
      </Text>
      {/* The row says "As of" its latest day; a cell whose source is behind says its own. */}
      {cell.asOf && rowAsOf && cell.asOf !== rowAsOf ? (
        <Text size="xs" c="dimmed" style={{ whiteSpace: "nowrap" }} data-as-of={cell.asOf}>
          as of {formatDay(cell.asOf)}
        </Text>
      ) : null}
      {cell.notAvailable ? <VisuallyHidden>{cell.notAvailable}</VisuallyHidden> : null}
    </Stack>
  );
  return cell.notAvailable ? (
    <Tooltip
      label={cell.notAvailable}
      multiline
      w={240}
      position="top-end"
      withArrow
      events={{ hover: true, focus: true, touch: true }}
    >
      {content}
    </Tooltip>
  ) : (
    content
  );
}
