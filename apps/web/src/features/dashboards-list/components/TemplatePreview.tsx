import { GRID_COLUMNS, type TInteractiveWidget } from "@app/core";
import { Box } from "@mantine/core";

/** Thumbnails share one height whatever the template's length, so the choice cards line up. */
const PREVIEW_HEIGHT = 104;

/** A colour per kind of widget so the thumbnail reads as numbers, charts and tables at a glance. */
function tint(format: TInteractiveWidget["format"]): string {
  if (format === "summary") return "var(--mantine-color-brand-2)";
  if (format === "table") return "var(--mantine-color-gray-3)";
  if (format === "chart:pie" || format === "chart:gauge" || format === "chart:radar")
    return "var(--mantine-color-orange-2)";
  return "var(--mantine-color-teal-2)";
}

/** A thumbnail of a template's layout: its widgets on the dashboard's 4-column grid, scaled to fit. */
export function TemplatePreview({ widgets }: { widgets: TInteractiveWidget[] }) {
  // Widgets fill the grid densely, so the rows needed are about the cells used over the columns.
  const cells = widgets.reduce((sum, widget) => sum + Math.min(widget.width, GRID_COLUMNS) * widget.height, 0);
  const rows = Math.max(1, Math.ceil(cells / GRID_COLUMNS));
  return (
    <Box
      aria-hidden="true"
      p={8}
      style={{
        display: "grid",
        gridTemplateColumns: `repeat(${GRID_COLUMNS}, 1fr)`,
        gridTemplateRows: `repeat(${rows}, 1fr)`,
        gridAutoFlow: "row dense",
        gap: 4,
        height: PREVIEW_HEIGHT,
        overflow: "hidden",
        borderRadius: "var(--mantine-radius-md)",
        background: "var(--mantine-color-gray-0)",
        border: "1px solid var(--mantine-color-gray-2)",
      }}
    >
      {[...widgets]
        .sort((a, b) => a.order - b.order)
        .map((widget) => (
          <Box
            key={widget.id}
            style={{
              gridColumn: `span ${Math.min(widget.width, GRID_COLUMNS)}`,
              gridRow: `span ${widget.height}`,
              background: tint(widget.format),
              borderRadius: 4,
            }}
          />
        ))}
    </Box>
  );
}

/** The blank option's thumbnail: an empty grid waiting for widgets. */
export function BlankPreview() {
  return (
    <Box
      aria-hidden="true"
      style={{
        height: PREVIEW_HEIGHT,
        borderRadius: "var(--mantine-radius-md)",
        border: "1px dashed var(--mantine-color-gray-4)",
        background: "var(--mantine-color-white)",
        display: "flex",
        alignItems: "center",
        justifyContent: "center",
        color: "var(--mantine-color-gray-5)",
        fontSize: 28,
        fontWeight: 300,
      }}
    >
      +
    </Box>
  );
}
