import type { TWidget } from "@app/core";
import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { rectSortingStrategy, SortableContext, sortableKeyboardCoordinates, useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { ActionIcon } from "@mantine/core";
import { WidgetCard } from "../../widgets";
import type { WidgetGridProps } from "./WidgetGrid";

function IconGrip({ size = 16 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
      {[6, 12, 18].flatMap((y) => [9, 15].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.6" />))}
    </svg>
  );
}

interface CellProps extends Omit<WidgetGridProps, "widgets" | "onReorder"> {
  widget: TWidget;
}

function SortableWidget({ widget, range, dataEnabled, editMode, actions }: CellProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: widget.id,
    disabled: !editMode,
  });
  return (
    <div
      ref={setNodeRef}
      className="dash-cell"
      data-w={widget.width}
      data-h={widget.height}
      data-format={widget.format}
      data-dragging={isDragging || undefined}
      style={{
        transform: CSS.Translate.toString(transform),
        transition,
        zIndex: isDragging ? 20 : undefined,
        position: "relative",
      }}
    >
      <WidgetCard
        widget={widget}
        range={range}
        dataEnabled={dataEnabled}
        editMode={editMode}
        dragHandle={
          <ActionIcon
            ref={setActivatorNodeRef}
            variant="subtle"
            color="gray"
            size="md"
            className="dash-drag-handle"
            {...attributes}
            {...listeners}
            aria-label="Drag to reorder"
          >
            <IconGrip size={16} />
          </ActionIcon>
        }
        onEdit={() => actions.onEdit(widget)}
        onDuplicate={() => actions.onDuplicate(widget)}
        onDelete={() => actions.onDelete(widget)}
        onAlerts={actions.onAlerts && widget.nature === "interactive" ? () => actions.onAlerts?.(widget) : undefined}
        onResize={(size) => actions.onResize(widget, size)}
      />
    </div>
  );
}

/**
 * The widget grid in edit mode: widgets are sortable by their handle: drag with a pointer, or focus the
 * handle, press Space, move with the arrow keys and press Space again.
 */
export function SortableWidgetGrid({ widgets, range, dataEnabled, editMode, actions, onReorder }: WidgetGridProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const titleOf = (id: string | number) => widgets.find((widget) => widget.id === id)?.title || "widget";
  const positionOf = (id: string | number) => widgets.findIndex((widget) => widget.id === id) + 1;

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = widgets.findIndex((widget) => widget.id === active.id);
    const to = widgets.findIndex((widget) => widget.id === over.id);
    if (from >= 0 && to >= 0) onReorder(from, to);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        screenReaderInstructions: {
          draggable:
            "To reorder a widget, press Space to pick it up, use the arrow keys to move it, and press Space again to drop it. Press Escape to cancel.",
        },
        announcements: {
          onDragStart: ({ active }) => `Picked up ${titleOf(active.id)}.`,
          onDragOver: ({ active, over }) =>
            over ? `${titleOf(active.id)} is over position ${positionOf(over.id)} of ${widgets.length}.` : undefined,
          onDragEnd: ({ active, over }) =>
            over ? `${titleOf(active.id)} was dropped at position ${positionOf(over.id)}.` : undefined,
          onDragCancel: ({ active }) => `Moving ${titleOf(active.id)} was cancelled.`,
        },
      }}
    >
      <SortableContext items={widgets.map((widget) => widget.id)} strategy={rectSortingStrategy} disabled={!editMode}>
        <div className="dash-grid">
          {widgets.map((widget) => (
            <SortableWidget
              key={widget.id}
              widget={widget}
              range={range}
              dataEnabled={dataEnabled}
              editMode={editMode}
              actions={actions}
            />
          ))}
        </div>
      </SortableContext>
    </DndContext>
  );
}
