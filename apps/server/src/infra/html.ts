import {
  filterInlineStyle,
  isAllowedUserUrl,
  USER_HTML_GLOBAL_ATTRIBUTES,
  USER_HTML_TAG_ATTRIBUTES,
  USER_HTML_TAGS,
  USER_HTML_URL_SCHEMES,
} from "@app/core";
import sanitizeHtml from "sanitize-html";

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...USER_HTML_TAGS],
  allowedAttributes: {
    "*": [...USER_HTML_GLOBAL_ATTRIBUTES],
    ...Object.fromEntries(Object.entries(USER_HTML_TAG_ATTRIBUTES).map(([tag, names]) => [tag, [...names]])),
  },
  allowedSchemes: [...USER_HTML_URL_SCHEMES],
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  // Dropped tags lose their content too when the content is code or a control's text, not when it is prose.
  disallowedTagsMode: "discard",
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "title", "select", "button", "template"],
  transformTags: {
    "*": (tagName, attribs) => {
      const next: sanitizeHtml.Attributes = {};
      for (const [name, value] of Object.entries(attribs)) {
        if (name === "style") {
          const style = filterInlineStyle(value);
          if (style) next.style = style;
        } else if ((name === "href" || name === "src") && !isAllowedUserUrl(value)) {
          // Dropped: sanitize-html's own scheme check runs after this, the core rule is stricter.
        } else next[name] = value;
      }
      // A link opening a new tab must not hand the opener to the target page.
      if (tagName === "a" && next.target === "_blank") next.rel = "noopener noreferrer";
      return { tagName, attribs: next };
    },
  },
};

/** User-written HTML reduced to the presentational allow-list of @app/core (see format/user-html). */
export function sanitizeUserHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
