import { Box, Skeleton, Stack, Text } from "@mantine/core";
import { IconAlert, IconChart } from "../../../ui/icons";
import { LazyTooltip as Tooltip } from "../../../ui/LazyTooltip";

/** Placeholder while a widget's data loads, shaped like the format that will appear. */
export function WidgetSkeleton({ format }: { format: string }) {
  if (format === "summary") {
    return (
      <Box className="dash-summary" data-count={3} aria-hidden="true">
        {[0, 1, 2].map((key) => (
          <Stack key={key} gap={10} className="dash-kpi">
            <Skeleton h={10} w="55%" radius="sm" />
            <Skeleton h={26} w="75%" radius="sm" />
            <Skeleton h={10} w="40%" radius="sm" />
          </Stack>
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
  return (
    <Stack className="dash-state" gap={6} align="center" justify="center" data-testid="widget-timed-out">
      <IconAlert size={22} color="var(--dash-muted)" />
      <Text fw={600} fz="sm" className="dash-muted">
        Data unavailable
      </Text>
    </Stack>
  );
}

export function WidgetDataError({ detail }: { detail?: string }) {
  return (
    <Stack className="dash-state" gap={6} align="center" justify="center" role="alert">
      <IconAlert size={22} color="var(--dash-down)" />
      <Tooltip label={detail} disabled={!detail} multiline maw={280}>
        <Text fw={600} fz="sm" style={{ color: "var(--dash-down)" }}>
          Data Error
        </Text>
      </Tooltip>
      <Text fz="xs" className="dash-muted" ta="center" maw={260}>
        The data source could not be read. Re-authorise the source or check the widget settings.
      </Text>
    </Stack>
  );
}

/** A widget whose query returned nothing for the range. */
export function WidgetEmpty() {
  return (
    <Stack className="dash-state" gap={6} align="center" justify="center">
      <IconChart size={22} color="var(--dash-muted)" />
      <Text fz="sm" className="dash-muted">
        No data for this period
      </Text>
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
