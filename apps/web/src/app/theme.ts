import type {
  AlertProps,
  BadgeProps,
  ButtonProps,
  CardProps,
  CheckboxProps,
  ComboboxProps,
  CSSVariablesResolver,
  MantineColorsTuple,
  ModalProps,
  NavLinkProps,
  NotificationProps,
  NumberInputProps,
  PaperProps,
  PasswordInputProps,
  SelectProps,
  TableProps,
  TextareaProps,
  TextInputProps,
  TooltipProps,
} from "@mantine/core";
import { createTheme, DEFAULT_THEME } from "@mantine/core";
import { readableOn } from "./contrast";

/**
 * A component's theme entry, typed by its props. Written without `Component.extend(...)` (which only
 * returns its argument) so the theme does not pull every themed component into every screen's first load.
 */
function themed<P>(entry: { defaultProps: Partial<P> }) {
  return entry;
}

const brand: MantineColorsTuple = [
  "#eef0ff",
  "#dcdeff",
  "#b7b9fb",
  "#8f93f6",
  "#6e72f2",
  "#595df0",
  "#4c4fef",
  "#3d40d5",
  "#3538bf",
  "#2a2da9",
];

/** The product's look: one brand colour, soft radii, quiet borders; components are styled here, not ad hoc. */
export const theme = createTheme({
  primaryColor: "brand",
  primaryShade: { light: 6, dark: 5 },
  colors: { brand },
  fontFamily: "Inter, ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  headings: {
    fontFamily:
      "Inter, ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
    fontWeight: "650",
    sizes: {
      h1: { fontSize: "1.75rem", lineHeight: "1.25" },
      h2: { fontSize: "1.375rem", lineHeight: "1.3" },
      h3: { fontSize: "1.125rem", lineHeight: "1.35" },
    },
  },
  defaultRadius: "md",
  cursorType: "pointer",
  components: {
    Button: themed<ButtonProps>({ defaultProps: { radius: "md" } }),
    Card: themed<CardProps>({ defaultProps: { withBorder: true, radius: "lg", padding: "lg", shadow: "xs" } }),
    Paper: themed<PaperProps>({ defaultProps: { radius: "lg" } }),
    Modal: themed<ModalProps>({
      defaultProps: {
        centered: true,
        radius: "lg",
        padding: "lg",
        overlayProps: { backgroundOpacity: 0.45, blur: 2 },
        // docs/product.md §9: modals close in 200 ms.
        transitionProps: { duration: 200 },
      },
    }),
    NavLink: themed<NavLinkProps>({ defaultProps: { variant: "light" } }),
    // Badges show their whole text: see global.css (.mantine-Badge-root).
    Badge: themed<BadgeProps>({ defaultProps: { radius: "sm", variant: "light" } }),
    Alert: themed<AlertProps>({ defaultProps: { radius: "md" } }),
    Checkbox: themed<CheckboxProps>({ defaultProps: { radius: "sm" } }),
    // Labels carry no asterisk, so a label reads exactly as written ("Password", not "Password *").
    TextInput: themed<TextInputProps>({ defaultProps: { withAsterisk: false } }),
    Textarea: themed<TextareaProps>({ defaultProps: { withAsterisk: false } }),
    NumberInput: themed<NumberInputProps>({ defaultProps: { withAsterisk: false } }),
    PasswordInput: themed<PasswordInputProps>({
      defaultProps: {
        withAsterisk: false,
        // The default "Toggle password visibility" would also answer to the label "Password".
        visibilityToggleButtonProps: { "aria-label": "Show or hide characters" },
      },
    }),
    // Closed dropdowns leave the DOM, so a select's label names only its input (getByLabel finds one element).
    Combobox: themed<ComboboxProps>({ defaultProps: { keepMounted: false } }),
    Select: themed<SelectProps>({
      defaultProps: { checkIconPosition: "right", allowDeselect: false, withAsterisk: false },
    }),
    Table: themed<TableProps>({ defaultProps: { verticalSpacing: "sm", horizontalSpacing: "md" } }),
    Tooltip: themed<TooltipProps>({ defaultProps: { withArrow: true } }),
    Notification: themed<NotificationProps>({
      defaultProps: { radius: "md", closeButtonProps: { "aria-label": "Close notification" } },
    }),
  },
});

const { gray } = DEFAULT_THEME.colors;
const palettes: Record<string, MantineColorsTuple> = { ...DEFAULT_THEME.colors, brand };

/**
 * Mantine's dimmed grey (gray 6) and the text of its light variants (shade 9 on shade 1: orange, yellow,
 * lime, green, teal) read below 4.5:1. Each is darkened just enough to pass on the surfaces it sits on
 * (white cards, the gray 0 page, gray 1–2 fills), so the look stays and the text becomes legible.
 */
export const READABLE_DIMMED = readableOn(gray[6], ["#ffffff", gray[0], gray[1], gray[2]]);

/** The light- and outline-variant text colours of each palette, readable on their fills and on white. */
export function readableLightColors(): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, shades] of Object.entries(palettes)) {
    variables[`--mantine-color-${name}-light-color`] = readableOn(shades[9], [
      "#ffffff",
      shades[0],
      shades[1],
      shades[2],
    ]);
    // Outline badges and buttons write their label in the outline colour (shade 6).
    variables[`--mantine-color-${name}-outline`] = readableOn(shades[6], ["#ffffff", gray[0]]);
  }
  return variables;
}

/** Computed once: Mantine asks again on each of its provider's renders, and the answer never changes. */
let resolvedVariables: ReturnType<CSSVariablesResolver> | null = null;

export const cssVariablesResolver: CSSVariablesResolver = () => {
  resolvedVariables ??= {
    variables: {},
    light: { "--mantine-color-dimmed": READABLE_DIMMED, ...readableLightColors() },
    dark: {},
  };
  return resolvedVariables;
};
