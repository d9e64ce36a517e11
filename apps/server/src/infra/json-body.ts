import { AppError } from "./errors";
import type { App } from "./http";

/**
 * Deepest nesting of objects and arrays a JSON body may have. Our deepest contract (a dashboard's
 * widgets with their instances and calculated metrics) is under 10 levels; 32 leaves room while
 * keeping every recursive step after parsing (re-serialising form fields, cache keys, validation)
 * far from the stack limit, which thousands of levels reach.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * True when the JSON text nests objects/arrays deeper than `max`. One pass over the text without
 * recursion, so it is safe on any input and runs before anything builds or walks the value.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/**
 * Replaces Fastify's JSON body parser with the same parser (same prototype-poisoning refusals)
 * behind a nesting bound: a body nested too deeply is a 400 before it is parsed.
 */
export function boundJsonBodies(app: App, maxDepth = MAX_JSON_DEPTH): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (jsonDepthExceeds(body as string, maxDepth)) {
      done(new AppError("bad_request", `The request body is nested too deeply (at most ${maxDepth} levels).`));
      return;
    }
    parseJson(request, body, done);
  });
}
