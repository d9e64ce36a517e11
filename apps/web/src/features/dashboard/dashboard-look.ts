import { colourOrFallback, isValidColour, type TDashboardStyles } from "@app/core";
import type { CSSProperties } from "react";
import { DARK_PALETTE, LIGHT_PALETTE, type WidgetLook } from "../widgets";

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

export interface DashboardLook {
  dark: boolean;
  /** CSS variables the dashboard's canvas, header and cards read. */
  style: CSSProperties;
  widgets: WidgetLook;
}

/**
 * The dashboard's look from its styles (spec §3): theme light or dark, then the three colours, each
 * applied only when it is a valid colour (spec §5), and the background image.
 */
export function dashboardLook(styles: TDashboardStyles): DashboardLook {
  const dark = styles.theme === "dark";
  const base = dark ? DARK : LIGHT;
  const canvas = colourOrFallback(styles.backgroundColor, base.canvas);
  const card = colourOrFallback(styles.dashboardBackgroundColor, base.card);
  const text = colourOrFallback(styles.color, base.text);
  const customText = isValidColour(styles.color);
  const muted = customText ? faded(text, 0.68) : base.muted;
  const style = {
    "--dash-canvas": canvas,
    "--dash-card": card,
    "--dash-text": text,
    "--dash-muted": muted,
    "--dash-line": base.line,
    "--dash-up": base.up,
    "--dash-down": base.down,
    ...(styles.backgroundImage ? { "--dash-canvas-image": `url("${encodeURI(styles.backgroundImage)}")` } : {}),
  } as CSSProperties;
  const surface = card === "transparent" ? base.card : card;
  return {
    dark,
    style,
    widgets: {
      dark,
      palette: dark ? DARK_PALETTE : LIGHT_PALETTE,
      text,
      muted,
      line: base.line,
      surface,
    },
  };
}
