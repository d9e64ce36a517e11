import type { TWidget } from "@app/core";
import { Drawer } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { WidgetForm } from "./WidgetForm";

export type WidgetFormSession =
  | { mode: "add"; key: number }
  /** `refused`: the fields a save of this widget was refused on (422), shown at the fields as it opens. */
  | { mode: "edit"; key: number; widget: TWidget; refused?: Record<string, string> };

interface Props {
  /** The open form, or null. A new key starts a fresh form (docs/product.md §4: editing cancels any open form). */
  session: WidgetFormSession | null;
  widgets: readonly TWidget[];
  nextOrder: number;
  onClose: () => void;
  onSave: (widget: TWidget, absorbedIds: string[]) => void;
}

/** The widget form in a side drawer titled 'Add widget' or 'Edit widget'. */
export function WidgetFormDrawer({ session, widgets, nextOrder, onClose, onSave }: Props) {
  const phone = useMediaQuery("(max-width: 36em)");
  return (
    <Drawer
      opened={session !== null}
      onClose={onClose}
      position="right"
      size={phone ? "100%" : 580}
      title={session?.mode === "edit" ? "Edit widget" : "Add widget"}
      closeButtonProps={{ "aria-label": "Close" }}
      styles={{
        content: { display: "flex", flexDirection: "column" },
        body: { flex: 1, minHeight: 0, padding: 0, display: "flex", flexDirection: "column" },
        title: { fontWeight: 650, fontSize: "var(--mantine-font-size-lg)" },
      }}
    >
      {session ? (
        <WidgetForm
          key={session.key}
          widget={session.mode === "edit" ? session.widget : null}
          refused={session.mode === "edit" ? session.refused : undefined}
          widgets={widgets}
          nextOrder={nextOrder}
          onCancel={onClose}
          onSave={onSave}
        />
      ) : null}
    </Drawer>
  );
}
