import type { TWidget } from "@app/core";
import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { rectSortingStrategy, SortableContext, useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { ActionIcon } from "@mantine/core";
import { useRef } from "react";
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

/** Arrow keys move one position in reading order: back with Up and Left, forward with Down and Right. */
const KEY_STEPS: Record<string, number> = { ArrowUp: -1, ArrowLeft: -1, ArrowDown: 1, ArrowRight: 1 };

/**
 * The keyboard sensor's next coordinates: the picked-up widget's centre on the centre of the slot one
 * position before or after the one it is over, so `closestCenter` can only answer that slot.
 *
 * dnd-kit's `sortableKeyboardCoordinates` puts the widget's top-left corner on the nearest slot in the
 * key's direction. With cards of different sizes (a 4x1 strip over 2x2 charts) the centre of the moved
 * card then often stays closest to the slot it was over, and the press did nothing; it also reads the
 * slot it is over from `over`, which lags a press while the page scrolls smoothly. The slot is counted
 * here instead (`slot`, reset when a widget is picked up), so each press moves exactly one position.
 */
function keyboardSlotCoordinates(
  order: () => readonly UniqueIdentifier[],
  slot: { current: number },
): KeyboardCoordinateGetter {
  return (event, { context: { active, collisionRect, droppableRects } }) => {
    const step = KEY_STEPS[event.code];
    if (step === undefined) return undefined;
    event.preventDefault();
    if (!active || !collisionRect) return undefined;
    const ids = order();
    if (slot.current < 0) slot.current = ids.indexOf(active.id);
    const next = slot.current + step;
    const rect = next >= 0 && next < ids.length ? droppableRects.get(ids[next]) : undefined;
    // At either end the widget stays where it is.
    if (!rect) return undefined;
    slot.current = next;
    return {
      x: rect.left + rect.width / 2 - collisionRect.width / 2,
      y: rect.top + rect.height / 2 - collisionRect.height / 2,
    };
  };
}

/**
 * The widget grid in edit mode: widgets are sortable by their handle: drag with a pointer, or focus the
 * handle, press Space, move with the arrow keys and press Space again.
 */
export function SortableWidgetGrid({ widgets, range, dataEnabled, editMode, actions, onReorder }: WidgetGridProps) {
  // The order and the slot a keyboard move is over, read by the sensor when a key is pressed (not when
  // the sensor was made), so a re-render during a move never hands it an old order.
  const order = useRef<readonly UniqueIdentifier[]>([]);
  order.current = widgets.map((widget) => widget.id);
  const slot = useRef(-1);
  const coordinateGetter = useRef(keyboardSlotCoordinates(() => order.current, slot)).current;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    // An instant scroll: a smooth one moves the widget over several frames, while the next press is read.
    useSensor(KeyboardSensor, { coordinateGetter, scrollBehavior: "instant" }),
  );
  const titleOf = (id: string | number) => widgets.find((widget) => widget.id === id)?.title || "widget";
  const positionOf = (id: string | number) => widgets.findIndex((widget) => widget.id === id) + 1;

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    slot.current = -1;
    if (!over || active.id === over.id) return;
    const from = widgets.findIndex((widget) => widget.id === active.id);
    const to = widgets.findIndex((widget) => widget.id === over.id);
    if (from >= 0 && to >= 0) onReorder(from, to);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragStart={() => {
        slot.current = -1;
      }}
      onDragEnd={onDragEnd}
      onDragCancel={() => {
        slot.current = -1;
      }}
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
