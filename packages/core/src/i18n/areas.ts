/**
 * Messages only the server says: the report e-mail's, the insight sentences (the insights answer carries
 * them worded) and the goals' count (the insights summary and the e-mail). The web app's build leaves
 * them out of its copy of every catalogue (apps/web/vite.config.ts), so a phone does not download an
 * e-mail's wording with the public view; catalogues.test.ts keeps each one unused by the web app.
 */
const SERVER_ONLY = [/^reportMail\./, /^insights\.(?!title$|reading$)/, /^goals\.summary/];

export function serverOnlyMessage(key: string): boolean {
  return SERVER_ONLY.some((pattern) => pattern.test(key));
}
