import type { TWidget, WidgetSize } from "@app/core";
import { lazy, Suspense } from "react";
import { WidgetCard, type WidgetRange } from "../../widgets";

// Drag and drop (dnd-kit) only loads in edit mode: viewers, public ones above all, never download it.
const SortableWidgetGrid = lazy(async () => ({ default: (await import("./SortableWidgetGrid")).SortableWidgetGrid }));

export interface WidgetActions {
  onEdit: (widget: TWidget) => void;
  onDuplicate: (widget: TWidget) => void;
  onDelete: (widget: TWidget) => void;
  onResize: (widget: TWidget, size: WidgetSize) => void;
  /** "Alert me when…" of a widget's menu (docs/decisions.md, "Alerts on any widget metric"). */
  onAlerts?: (widget: TWidget) => void;
}

export interface WidgetGridProps {
  widgets: TWidget[];
  range: WidgetRange;
  dataEnabled: boolean;
  editMode: boolean;
  actions: WidgetActions;
  /** The widgets in their new order after a drag (mouse, touch or keyboard). */
  onReorder: (from: number, to: number) => void;
}

/** The 4-column widget grid; sortable in edit mode. */
export function WidgetGrid(props: WidgetGridProps) {
  const plain = <PlainWidgetGrid {...props} />;
  if (!props.editMode) return plain;
  return (
    <Suspense fallback={plain}>
      <SortableWidgetGrid {...props} />
    </Suspense>
  );
}

function PlainWidgetGrid({ widgets, range, dataEnabled }: WidgetGridProps) {
  return (
    <div className="dash-grid">
      {widgets.map((widget) => (
        <div
          key={widget.id}
          className="dash-cell"
          data-w={widget.width}
          data-h={widget.height}
          data-format={widget.format}
          style={{ position: "relative" }}
        >
          <WidgetCard widget={widget} range={range} dataEnabled={dataEnabled} editMode={false} />
        </div>
      ))}
    </div>
  );
}
