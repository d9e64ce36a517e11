import {
  filterInlineStyle,
  isAllowedUserUrl,
  USER_HTML_GLOBAL_ATTRIBUTES,
  USER_HTML_TAG_ATTRIBUTES,
  USER_HTML_TAGS,
} from "@app/core";
import DOMPurify from "dompurify";

const GLOBAL_ATTRIBUTES = new Set<string>(USER_HTML_GLOBAL_ATTRIBUTES);

// An instance of its own: the hooks below apply to user HTML only, not to other DOMPurify users.
const purifier = DOMPurify();

purifier.addHook("uponSanitizeAttribute", (node, data) => {
  const name = data.attrName;
  const tag = node.nodeName.toLowerCase();
  const tagAttributes = Object.hasOwn(USER_HTML_TAG_ATTRIBUTES, tag) ? USER_HTML_TAG_ATTRIBUTES[tag] : [];
  if (!GLOBAL_ATTRIBUTES.has(name) && !tagAttributes.includes(name)) {
    data.keepAttr = false;
  } else if (name === "style") {
    data.attrValue = filterInlineStyle(data.attrValue);
    if (data.attrValue === "") data.keepAttr = false;
  } else if ((name === "href" || name === "src") && !isAllowedUserUrl(data.attrValue)) {
    data.keepAttr = false;
  }
});

purifier.addHook("afterSanitizeAttributes", (node) => {
  // A link opening a new tab must not hand the opener to the target page.
  if (node.nodeName === "A" && node.getAttribute("target") === "_blank")
    node.setAttribute("rel", "noopener noreferrer");
});

const CONFIG = {
  ALLOWED_TAGS: [...USER_HTML_TAGS],
  ALLOWED_ATTR: [...new Set([...USER_HTML_GLOBAL_ATTRIBUTES, ...Object.values(USER_HTML_TAG_ATTRIBUTES).flat()])],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
};

/**
 * User-written HTML reduced to the presentational allow-list of @app/core (format/user-html), the
 * same the server applies on save: it also covers rows saved before that and any other HTML shown.
 */
export function sanitizeUserHtml(html: string): string {
  return purifier.sanitize(html, CONFIG);
}
