import type { Messages } from "./translator";

const ACCENTED: Record<string, string> = {
  a: "á",
  b: "ƀ",
  c: "ç",
  d: "ð",
  e: "é",
  f: "ƒ",
  g: "ĝ",
  h: "ĥ",
  i: "í",
  j: "ĵ",
  k: "ķ",
  l: "ļ",
  m: "ɱ",
  n: "ñ",
  o: "ó",
  p: "þ",
  q: "ǫ",
  r: "ŕ",
  s: "š",
  t: "ţ",
  u: "ú",
  v: "ṽ",
  w: "ŵ",
  x: "ẋ",
  y: "ý",
  z: "ž",
  A: "Á",
  B: "Ɓ",
  C: "Ç",
  D: "Ð",
  E: "É",
  F: "Ƒ",
  G: "Ĝ",
  H: "Ĥ",
  I: "Í",
  J: "Ĵ",
  K: "Ķ",
  L: "Ļ",
  M: "Ṁ",
  N: "Ñ",
  O: "Ó",
  P: "Þ",
  Q: "Ǫ",
  R: "Ŕ",
  S: "Š",
  T: "Ţ",
  U: "Ú",
  V: "Ṽ",
  W: "Ŵ",
  X: "Ẋ",
  Y: "Ý",
  Z: "Ž",
};
/** How much longer pseudo text is: German and Dutch run up to about 40 % longer than English. */
const GROWTH = 0.4;

/**
 * One ICU message in pseudo-English: letters of its literal text accented, about 40 % longer, within
 * [brackets] so a cut-off end shows. Argument syntax (`{count, plural, one {…}}`), `#` and quoted text are
 * left alone: the literal text is what sits at an even depth of braces.
 */
export function pseudoMessage(message: string): string {
  const chars = [...message];
  let depth = 0;
  let quoted = false;
  let out = "";
  let letters = 0;
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index];
    // ICU's apostrophe: it quotes only before a brace or '#', and two of them are one apostrophe.
    if (char === "'" && (quoted || "{}#'".includes(chars[index + 1] ?? ""))) quoted = !quoted;
    else if (!quoted && char === "{") depth++;
    else if (!quoted && char === "}") depth--;
    if (!quoted && depth % 2 === 0 && ACCENTED[char]) {
      out += ACCENTED[char];
      letters++;
    } else out += char;
  }
  const padding = "~".repeat(Math.ceil(letters * GROWTH));
  return `[${out}${padding ? ` ${padding}` : ""}]`;
}

/** The pseudo-locale's catalogue, generated from English (never stored). */
export function pseudoMessages(english: Messages): Messages {
  return Object.fromEntries(Object.entries(english).map(([key, value]) => [key, pseudoMessage(value)])) as Messages;
}
