/**
 * The server paints a public dashboard's header before the app's root (`#boot-view`, see
 * `bootHeaderHtml` in the server's page-data routes) so a phone shows the name before any script
 * runs. It goes in the commit that draws the dashboard's own header in the same place (or anything
 * else: a password prompt, an error, another screen), never earlier, so the page never flashes empty.
 */
export function removeBootView() {
  document.getElementById("boot-view")?.remove();
}
