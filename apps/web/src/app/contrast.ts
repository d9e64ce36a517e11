/** WCAG 2 relative luminance of a '#rrggbb' colour. */
export function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((start) => {
    const channel = Number.parseInt(hex.slice(start, start + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two '#rrggbb' colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** Normal-size text needs 4.5:1 (WCAG AA, what axe's colour-contrast rule checks). */
export const TEXT_CONTRAST = 4.5;

function toHex(channels: number[]): string {
  return `#${channels.map((channel) => Math.round(channel).toString(16).padStart(2, "0")).join("")}`;
}

/**
 * The colour itself when it already reads as text on every background, else the lightest shade of it
 * (mixed towards black in small steps) that does, with a little margin over the 4.5:1 minimum so
 * anti-aliasing never tips it under. Keeps the hue, so a darkened orange still reads as orange.
 */
export function readableOn(hex: string, backgrounds: readonly string[], minimum = TEXT_CONTRAST + 0.1): string {
  const base = [1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16));
  for (let step = 0; step <= 100; step += 2) {
    const candidate = toHex(base.map((channel) => channel * (1 - step / 100)));
    if (backgrounds.every((background) => contrastRatio(candidate, background) >= minimum)) return candidate;
  }
  return "#000000";
}
