import { isValidColour, type TDashboardStyles } from "@app/core";
import { Box, ColorInput, SegmentedControl, Stack, Switch, Text } from "@mantine/core";
import { ImageUpload } from "../../../ui/ImageUpload";
import { STYLE_IMAGES } from "../style-images";
import type { StyleImageField } from "../use-dashboard-saver";

const SWATCHES = [
  "#ffffff",
  "#f4f5f9",
  "#eef2ff",
  "#f1f8f5",
  "#fff8eb",
  "#1f2433",
  "#0e1120",
  "#171b2d",
  "#3538bf",
  "#12805c",
];

interface Props {
  styles: TDashboardStyles;
  /** Images picked but not saved yet (shown as previews). */
  pendingFiles: Partial<Record<StyleImageField, File>>;
  onStyles: (patch: Partial<TDashboardStyles>) => void;
  onFile: (field: StyleImageField, file: File | null) => void;
}

function ColourField({
  label,
  description,
  value,
  onChange,
}: {
  label: string;
  description: string;
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  const text = value ?? "";
  return (
    <ColorInput
      label={label}
      description={description}
      placeholder="Theme default"
      format="hex"
      withEyeDropper={false}
      swatches={SWATCHES}
      swatchesPerRow={5}
      value={text}
      onChange={(next) => onChange(next === "" ? null : next)}
      // docs/product.md §5: a colour applies only when valid; an invalid one is kept but flagged.
      error={text !== "" && !isValidColour(text) ? "Not a valid colour: the theme default is used." : undefined}
      popoverProps={{ withinPortal: true }}
    />
  );
}

/** The edit-mode styles of docs/product.md §3: colours, theme and the three images. */
export function StylesPanel({ styles, pendingFiles, onStyles, onFile }: Props) {
  return (
    <Stack gap="md">
      <Stack gap={6}>
        <Text fz="sm" fw={500} id="dashboard-theme-label">
          Theme
        </Text>
        <SegmentedControl
          aria-labelledby="dashboard-theme-label"
          fullWidth
          size="xs"
          value={styles.theme === "dark" ? "dark" : "light"}
          onChange={(theme) => onStyles({ theme })}
          data={[
            { value: "light", label: "Light" },
            { value: "dark", label: "Dark" },
          ]}
        />
      </Stack>
      <ColourField
        label="Background colour"
        description="Behind the widgets"
        value={styles.backgroundColor}
        onChange={(backgroundColor) => onStyles({ backgroundColor })}
      />
      <ColourField
        label="Dashboard background colour"
        description="Of the widget cards"
        value={styles.dashboardBackgroundColor}
        onChange={(dashboardBackgroundColor) => onStyles({ dashboardBackgroundColor })}
      />
      <ColourField
        label="Text colour"
        description="Titles, numbers and labels"
        value={styles.color}
        onChange={(color) => onStyles({ color })}
      />
      <Switch
        label="Insights summary at the top"
        description="The most notable changes across the widgets, also on the PDF's first page"
        checked={styles.insightsSummary === true}
        onChange={(event) => onStyles({ insightsSummary: event.currentTarget.checked })}
      />
      {STYLE_IMAGES.map((image) => (
        <Box key={image.key} className="dash-style-images">
          <ImageUpload
            label={image.label}
            currentUrl={styles[image.key]}
            file={pendingFiles[image.field] ?? null}
            onFileChange={(file) => onFile(image.field, file)}
            onRemove={() => onStyles({ [image.key]: null })}
          />
        </Box>
      ))}
    </Stack>
  );
}
