/**
 * User HTML's sanitiser in the server-rendering build (it replaces ui/user-html.ts there): DOMPurify needs
 * a DOM, so the server hands in its own sanitiser (infra/html.ts), built from the same allow-list of
 * @app/core and applied on save already. The browser keeps the server's markup when it hydrates.
 */
let sanitizer: ((html: string) => string) | null = null;

export function setUserHtmlSanitizer(sanitize: (html: string) => string): void {
  sanitizer = sanitize;
}

export function sanitizeUserHtml(html: string): string {
  if (!sanitizer) throw new Error("The server has not given its user HTML sanitiser.");
  return sanitizer(html);
}
