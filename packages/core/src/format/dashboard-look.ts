import type { TDashboardStyles } from "../contract";
import { colourOrFallback, isValidColour } from "./colour";

const LIGHT = {
  canvas: "#f4f5f9",
  card: "#ffffff",
  text: "#1f2433",
  muted: "#6b7285",
  line: "#e6e8ef",
  up: "#12805c",
  down: "#d63939",
};
const DARK = {
  canvas: "#0e1120",
  card: "#171b2d",
  text: "#e8eaf3",
  muted: "#9aa1b8",
  line: "#2a3049",
  up: "#3ddc97",
  down: "#ff6b6b",
};

/** '#1f2433' at 65% → 'rgba(31, 36, 51, 0.65)'; other colour syntaxes stay as they are. */
function faded(colour: string, alpha: number): string {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(colour);
  const long = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  const parts = short ? short.slice(1).map((part) => part + part) : long ? long.slice(1) : null;
  if (!parts) return colour;
  const [r, g, b] = parts.map((part) => Number.parseInt(part, 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

export interface DashboardColours {
  dark: boolean;
  /** The CSS variables the dashboard's canvas, header and cards read (`--dash-*`). */
  variables: Record<string, string>;
  text: string;
  muted: string;
  line: string;
  /** The cards' colour, opaque ('transparent' cards are drawn on the theme's card colour). */
  surface: string;
}

/**
 * The dashboard's colours from its styles (docs/product.md §3): theme light or dark, then the three colours, each
 * applied only when it is a valid colour (docs/product.md §5), and the background image. Shared by the web app
 * and the server, which paints a public dashboard's header in its HTML with the same variables.
 */
export function dashboardColours(styles: TDashboardStyles): DashboardColours {
  const dark = styles.theme === "dark";
  const base = dark ? DARK : LIGHT;
  const canvas = colourOrFallback(styles.backgroundColor, base.canvas);
  const card = colourOrFallback(styles.dashboardBackgroundColor, base.card);
  const text = colourOrFallback(styles.color, base.text);
  const muted = isValidColour(styles.color) ? faded(text, 0.68) : base.muted;
  const variables: Record<string, string> = {
    "--dash-canvas": canvas,
    "--dash-card": card,
    "--dash-text": text,
    "--dash-muted": muted,
    "--dash-line": base.line,
    "--dash-up": base.up,
    "--dash-down": base.down,
    ...(styles.backgroundImage ? { "--dash-canvas-image": `url("${encodeURI(styles.backgroundImage)}")` } : {}),
  };
  return { dark, variables, text, muted, line: base.line, surface: card === "transparent" ? base.card : card };
}
