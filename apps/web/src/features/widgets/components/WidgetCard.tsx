import type { TWidget, WidgetSize } from "@app/core";
import { Box, Group, Text } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense, useContext, useState } from "react";
import { useI18n } from "../../../lib/i18n";
import { useElementSize } from "../../../ui/use-element-size";
import { WidgetInsight } from "../../insights";
import { WidgetBadgeContext } from "../badge";
// Shared with the server-rendered page's charts (ssr/chart-placeholders.ts), which decide as the card does.
import { bodyFit } from "../card-size";
import { PublicAccessContext, type WidgetRange } from "../queries";
import { firstWidgetState, InteractiveWidgetBody, type WidgetState } from "./InteractiveWidgetBody";
import { PassiveWidget } from "./PassiveWidget";

// Edit-mode menus load with edit mode: viewers never download them.
const WidgetActionsMenu = lazy(async () => ({ default: (await import("./WidgetActionsMenu")).WidgetActionsMenu }));
const WidgetSizeMenu = lazy(async () => ({ default: (await import("./WidgetSizeMenu")).WidgetSizeMenu }));

export interface WidgetCardProps {
  widget: TWidget;
  range: WidgetRange;
  /** Whether interactive widgets may load their data. */
  dataEnabled: boolean;
  editMode: boolean;
  /** The drag handle of the sortable grid (edit mode only). */
  dragHandle?: ReactNode;
  onEdit?: () => void;
  onDuplicate?: () => void;
  onDelete?: () => void;
  /** Opens the widget's alerts (edit mode; given for interactive widgets only). */
  onAlerts?: () => void;
  onResize?: (size: WidgetSize) => void;
}

/**
 * One widget on the grid: an article named by its title, with data-ready="true" once its content is
 * drawn (or settled on an empty or error state), so tests and benchmarks can wait for it.
 */
export function WidgetCard({
  widget,
  range,
  dataEnabled,
  editMode,
  dragHandle,
  onEdit,
  onDuplicate,
  onDelete,
  onAlerts,
  onResize,
}: WidgetCardProps) {
  const access = useContext(PublicAccessContext);
  // A member's card is measured as it mounts (ui/use-element-size.ts); a public view's in a transition,
  // in slices a phone can draw between.
  const { ref, width, height } = useElementSize(!access);
  const client = useQueryClient();
  const badge = useContext(WidgetBadgeContext);
  // The body reports its state from an effect; the first render already says what the body first shows
  // (a table from the cache is ready), so a server-rendered card is not busy until the app starts.
  const [state, setState] = useState<WidgetState>(() =>
    widget.nature === "passive" ? "ready" : firstWidgetState(client, widget, range, access, dataEnabled),
  );
  // Nothing is decided until measured: a table is then made compact by the stylesheet (the card body's
  // container query).
  const { compact, short } = bodyFit(widget.format, width, height);
  const { t } = useI18n();
  const title = widget.title || t("widget.untitled");

  return (
    <Box
      component="article"
      aria-label={title}
      className="dash-card"
      data-widget-id={widget.id}
      data-format={widget.format}
      data-state={state}
      data-ready={state !== "loading"}
      aria-busy={state === "loading"}
    >
      <Group className="dash-card-header" gap={4} wrap="nowrap" justify="space-between">
        <Group gap={4} wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
          {editMode ? dragHandle : null}
          <Text component="h2" className="dash-card-title" title={title}>
            {title}
          </Text>
        </Group>
        {badge?.(widget)}
        {editMode && onResize && onEdit && onDuplicate && onDelete ? (
          <Group gap={0} wrap="nowrap" className="dash-card-controls">
            <Suspense fallback={null}>
              <WidgetSizeMenu width={widget.width} height={widget.height} onChange={onResize} />
              <WidgetActionsMenu onEdit={onEdit} onDuplicate={onDuplicate} onDelete={onDelete} onAlerts={onAlerts} />
            </Suspense>
          </Group>
        ) : null}
      </Group>
      {widget.nature === "interactive" && !editMode ? <WidgetInsight widgetId={widget.id} /> : null}
      <Box ref={ref} className="dash-card-body">
        {widget.nature === "interactive" ? (
          <InteractiveWidgetBody
            widget={widget}
            range={range}
            enabled={dataEnabled}
            compact={compact}
            short={short}
            width={width}
            height={height}
            onState={setState}
          />
        ) : (
          <PassiveWidget widget={widget} range={range} />
        )}
      </Box>
    </Box>
  );
}
