import { GRID_COLUMNS, WIDGET_HEIGHTS, WIDGET_SIZES, type WidgetSize } from "@app/core";
import { ActionIcon, Box, Menu, Text, Tooltip } from "@mantine/core";
import { IconResize } from "../../../ui/icons";

/** A small picture of a size on the 4-column grid. */
function SizePicture({ size, active }: { size: WidgetSize; active: boolean }) {
  return (
    <Box
      aria-hidden="true"
      style={{
        display: "grid",
        gridTemplateColumns: `repeat(${GRID_COLUMNS}, 7px)`,
        gridTemplateRows: `repeat(${WIDGET_HEIGHTS.length}, 7px)`,
        gap: 2,
      }}
    >
      {WIDGET_HEIGHTS.flatMap((row) =>
        Array.from({ length: GRID_COLUMNS }, (_, index) => index + 1).map((column) => (
          <Box
            key={`${row}-${column}`}
            style={{
              borderRadius: 1.5,
              background:
                column <= size.width && row <= size.height
                  ? active
                    ? "var(--mantine-color-brand-6)"
                    : "var(--mantine-color-brand-3)"
                  : "var(--mantine-color-gray-2)",
            }}
          />
        )),
      )}
    </Box>
  );
}

interface Props {
  width: number;
  height: number;
  onChange: (size: WidgetSize) => void;
}

/** The size picker: the 12 sizes 1x1 … 4x3 (columns x rows). */
export function WidgetSizeMenu({ width, height, onChange }: Props) {
  return (
    <Menu position="bottom-end" shadow="md" width={252} withinPortal>
      <Menu.Target>
        <Tooltip label="Widget size" openDelay={400}>
          <ActionIcon variant="subtle" color="gray" size="md" aria-label="Widget size" className="dash-card-control">
            <IconResize size={16} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Size (columns x rows)</Menu.Label>
        <Box style={{ display: "grid", gridTemplateColumns: "repeat(4, 1fr)", gap: 2 }}>
          {WIDGET_SIZES.map((size) => {
            const active = size.width === width && size.height === height;
            return (
              <Menu.Item
                key={size.name}
                onClick={() => onChange(size)}
                aria-label={size.name}
                aria-current={active || undefined}
                p={6}
                bg={active ? "var(--mantine-color-brand-0)" : undefined}
                styles={{ itemLabel: { display: "flex", flexDirection: "column", alignItems: "center", gap: 4 } }}
              >
                <SizePicture size={size} active={active} />
                <Text fz={11} fw={active ? 700 : 500} c={active ? "brand.7" : "dimmed"}>
                  {size.name}
                </Text>
              </Menu.Item>
            );
          })}
        </Box>
      </Menu.Dropdown>
    </Menu>
  );
}
