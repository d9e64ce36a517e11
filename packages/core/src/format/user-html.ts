/**
 * The one allow-list of user-written HTML (dashboard footer, text cards, descriptions, notes). Both the
 * server (sanitize-html, on save) and the web (DOMPurify, on display) apply it, so a member can format
 * text but cannot put a form, a button or a full-screen overlay on a page the agency's clients open.
 * Presentational markup only: no forms or controls, no frames, objects or scripts, no event handlers,
 * no `class` (app classes could position an element over the page), no positioning in `style`.
 */
export const USER_HTML_TAGS = [
  "a",
  "abbr",
  "b",
  "blockquote",
  "br",
  "caption",
  "code",
  "col",
  "colgroup",
  "del",
  "div",
  "em",
  "figcaption",
  "figure",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "hr",
  "i",
  "img",
  "ins",
  "li",
  "mark",
  "ol",
  "p",
  "pre",
  "s",
  "small",
  "span",
  "strike",
  "strong",
  "sub",
  "sup",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "u",
  "ul",
] as const;

/** Attributes allowed on every allowed tag. */
export const USER_HTML_GLOBAL_ATTRIBUTES = ["title", "style", "dir", "lang"] as const;

/** Attributes allowed on one tag only. */
export const USER_HTML_TAG_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ["href", "target", "rel"],
  img: ["src", "alt", "width", "height"],
  td: ["colspan", "rowspan", "align"],
  th: ["colspan", "rowspan", "align", "scope"],
  col: ["span"],
  colgroup: ["span"],
  ol: ["start", "type"],
};

/** URL schemes a link or image may use; relative URLs (same site) are allowed as well. */
export const USER_HTML_URL_SCHEMES = ["http", "https", "mailto"] as const;

/**
 * Inline style properties kept: text and box looks only. Anything that moves an element out of the
 * flow (position, inset, z-index, transform…) or loads something (url(), image properties) is dropped.
 */
export const USER_HTML_STYLE_PROPERTIES = [
  "background-color",
  "border",
  "border-bottom",
  "border-color",
  "border-left",
  "border-right",
  "border-style",
  "border-top",
  "border-width",
  "color",
  "font-size",
  "font-style",
  "font-weight",
  "line-height",
  "margin",
  "margin-bottom",
  "margin-left",
  "margin-right",
  "margin-top",
  "padding",
  "padding-bottom",
  "padding-left",
  "padding-right",
  "padding-top",
  "text-align",
  "text-decoration",
  "vertical-align",
  "width",
] as const;

const STYLE_PROPERTIES = new Set<string>(USER_HTML_STYLE_PROPERTIES);
// Values that could fetch, script or escape the declaration; a plain value is words, numbers, #hex,
// units, commas, dots, percent and rgb()/hsl() colours.
const NEGATIVE_NUMBER = /(?:^|[\s,(])-[\d.]/;
const SAFE_STYLE_VALUE = /^(?:[-#%.,\w\s]|(?:rgba?|hsla?)\([\d\s.,%/]*\))+$/i;

/** Keeps the allowed declarations of an inline style (`position: fixed` and the like are dropped). */
export function filterInlineStyle(style: string): string {
  const kept: string[] = [];
  // Comments could hide a property from a naive reader; they carry no look, so they go.
  for (const declaration of style.replace(/\/\*[\s\S]*?\*\//g, "").split(";")) {
    const colon = declaration.indexOf(":");
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration
      .slice(colon + 1)
      .trim()
      .replace(/\s*!important$/i, "");
    if (!STYLE_PROPERTIES.has(property) || value === "" || !SAFE_STYLE_VALUE.test(value)) continue;
    // A negative margin could pull a box over the page's header or another widget.
    if (NEGATIVE_NUMBER.test(value)) continue;
    kept.push(`${property}: ${value}`);
  }
  return kept.join("; ");
}

/** True when a link or image address is relative or uses an allowed scheme (never javascript:, data:…). */
export function isAllowedUserUrl(url: string): boolean {
  // Browsers ignore control characters and spaces inside a scheme ("java\tscript:"), so judge without them.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed.
  const compact = url.replace(/[\u0000-\u0020\u007f]/g, "").toLowerCase();
  if (compact.startsWith("//")) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(compact)?.[1];
  return scheme === undefined || (USER_HTML_URL_SCHEMES as readonly string[]).includes(scheme);
}
