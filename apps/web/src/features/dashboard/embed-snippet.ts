/** An HTML attribute value: the link and the dashboard's name must not break out of their quotes. */
const attribute = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The iframe an agency pastes into its or its client's site. */
export function embedSnippet(url: string, title: string): string {
  return `<iframe src="${attribute(url)}" title="${attribute(title)}" width="100%" height="800" style="border:0" loading="lazy"></iframe>`;
}
