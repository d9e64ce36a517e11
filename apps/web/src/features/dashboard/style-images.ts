import type { StyleImageField } from "./use-dashboard-saver";

// Apart from StylesPanel so the dashboard view can read it without loading the (members-only) panel.
/** The image styles, their multipart field (docs/product.md §7) and their label. */
export const STYLE_IMAGES: ReadonlyArray<{
  key: "logoImage" | "backgroundImage" | "clientImage";
  field: StyleImageField;
  label: string;
}> = [
  { key: "logoImage", field: "logo_image", label: "Logo image" },
  { key: "clientImage", field: "client_image", label: "Client image" },
  { key: "backgroundImage", field: "background_image", label: "Background image" },
];
