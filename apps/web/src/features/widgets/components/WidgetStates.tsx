import { Box, Skeleton, Stack, Text } from "@mantine/core";
import { useI18n } from "../../../lib/i18n";
import { IconAlert, IconChart } from "../../../ui/icons";
import { LazyTooltip as Tooltip } from "../../../ui/LazyTooltip";
import { summaryGridStyle } from "./SummaryWidget";

/** Characters of the figure the placeholder is sized for ("$12,345.67": money is the longest usual figure). */
const PLACEHOLDER_FIGURE_LENGTH = 10;

/**
 * Placeholder while a widget's data loads, shaped like the format that will appear. The summary's
 * tiles are the real tiles' lines (label, number, change) under a shimmer, so the card keeps its
 * height when the figures come: on a phone, where cards grow with their content, a shorter placeholder
 * made every card below jump (layout shift). `withChange`: the dashboard compares periods, so each
 * tile will have its change line.
 */
export function WidgetSkeleton({
  format,
  withChange = false,
  figures = 4,
  width = 0,
}: {
  format: string;
  withChange?: boolean;
  /** How many figures a summary will show (its chosen metrics), laid out as SummaryWidget lays them. */
  figures?: number;
  width?: number;
}) {
  if (format === "summary") {
    const tiles = Array.from({ length: Math.max(1, figures) }, (_, index) => `figure-${index}`);
    return (
      <Box
        className="dash-summary"
        data-count={Math.min(tiles.length, 6)}
        // Sized for a long usual figure: the real ones differ by a few pixels, not a line.
        style={summaryGridStyle(tiles.length, width, PLACEHOLDER_FIGURE_LENGTH)}
        aria-hidden="true"
      >
        {tiles.map((key) => (
          <Box key={key} className="dash-kpi">
            <Skeleton radius="sm" w="55%">
              <Text className="dash-kpi-label">&nbsp;</Text>
            </Skeleton>
            <Skeleton radius="sm" w="75%" my={2}>
              <Text className="dash-kpi-value">&nbsp;</Text>
            </Skeleton>
            {withChange ? (
              <Skeleton radius="sm" w="60%">
                {/* The change and, under it, the previous period's value, as ChangeText and the tile draw them. */}
                <Box className="dash-kpi-change">
                  <Text component="span" fz="xs" fw={600}>
                    &nbsp;
                  </Text>
                  <Text component="span" className="dash-kpi-previous">
                    &nbsp;
                  </Text>
                </Box>
              </Skeleton>
            ) : null}
          </Box>
        ))}
      </Box>
    );
  }
  if (format === "table") {
    return (
      <Stack gap={12} pt={4} aria-hidden="true">
        {[90, 70, 80, 60, 75].map((width) => (
          <Skeleton key={width} h={12} w={`${width}%`} radius="sm" />
        ))}
      </Stack>
    );
  }
  return <Skeleton h="100%" mih={80} radius="md" aria-hidden="true" />;
}

/** A widget whose source failed: the product's 'Data Error'. */
/** Print view: the widget's data did not come within its time limit (the rest of the report still prints). */
export function WidgetTimedOut() {
  const { t } = useI18n();
  return (
    <Stack className="dash-state" gap={6} align="center" justify="center" data-testid="widget-timed-out">
      <IconAlert size={22} color="var(--dash-muted)" />
      <Text fw={600} fz="sm" className="dash-muted">
        {t("widget.unavailable")}
      </Text>
    </Stack>
  );
}

export function WidgetDataError({ detail }: { detail?: string }) {
  const { t } = useI18n();
  return (
    <Stack className="dash-state" gap={6} align="center" justify="center" role="alert">
      <IconAlert size={22} color="var(--dash-down)" />
      <Tooltip label={detail} disabled={!detail} multiline maw={280}>
        <Text fw={600} fz="sm" style={{ color: "var(--dash-down)" }}>
          {t("widget.dataError")}
        </Text>
      </Tooltip>
      <Text fz="xs" className="dash-muted" ta="center" maw={260}>
        {t("widget.dataErrorHelp")}
      </Text>
    </Stack>
  );
}

/** A widget whose query returned nothing for the range. */
export function WidgetEmpty({ reasons = [] }: { reasons?: readonly string[] }) {
  const { t } = useI18n();
  return (
    <Stack className="dash-state" gap={6} align="center" justify="center">
      <IconChart size={22} color="var(--dash-muted)" />
      <Text fz="sm" className="dash-muted">
        {t("widget.noData")}
      </Text>
      {/* The provider said why it has nothing (a domain too new or small for its database). */}
      {reasons.map((reason) => (
        <Text key={reason} fz="xs" className="dash-muted" ta="center" data-testid="widget-no-data-reason">
          {reason}
        </Text>
      ))}
    </Stack>
  );
}

/** Data the viewer cannot load here (widget data needs a signed-in member of the dashboard's company). */
export function WidgetUnavailable() {
  return (
    <Stack className="dash-state" gap={6} align="center" justify="center">
      <IconChart size={22} color="var(--dash-muted)" />
      <Text fz="sm" className="dash-muted" ta="center">
        Data is available to signed-in members.
      </Text>
    </Stack>
  );
}
