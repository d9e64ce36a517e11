import querystring from "node:querystring";
import type { FastifyRequest } from "fastify";
import { AppError } from "./errors";
import type { App } from "./http";

/**
 * Deepest nesting of objects and arrays a JSON body may have. Our deepest contract (a dashboard's
 * widgets with their instances and calculated metrics) is under 10 levels; 32 leaves room while
 * keeping every recursive step after parsing (re-serialising form fields, cache keys, validation)
 * far from the stack limit, which thousands of levels reach.
 */
export const MAX_JSON_DEPTH = 32;

/** PostgreSQL text cannot hold NUL, and no form field has a use for it: refused as malformed text. */
export const NUL_MESSAGE = "The request may not contain NUL characters.";

/**
 * Why a JSON text is refused before parsing, or null: nesting deeper than `max`, or a NUL
 * character (only writable as the escape \u0000). One pass over the text without recursion, so
 * it is safe on any input and runs before anything builds or walks the value.
 */
export function jsonTextProblem(text: string, max: number): string | null {
  let depth = 0;
  // Strings are most of a body: jump over them with native indexOf instead of walking each character.
  let backslash = text.indexOf("\\");
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let from = i + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote === -1) return null; // unterminated: the JSON parser refuses it
        if (backslash !== -1 && backslash < from) backslash = text.indexOf("\\", from);
        if (backslash === -1 || backslash > quote) {
          i = quote;
          break;
        }
        // An escape inside the string: \u0000 is a NUL; any other escaped character is skipped.
        if (text.startsWith("u0000", backslash + 1)) return NUL_MESSAGE;
        from = backslash + 2;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return `The request body is nested too deeply (at most ${max} levels).`;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return null;
}

/**
 * A JSON body handed to its route unparsed (routes with `config.jsonText`): a route that answers
 * from a cache keyed on the exact text skips parsing it. `parse()` applies the same checks and the
 * same parser as every other JSON body, and fails with the same 400.
 */
export class JsonText {
  constructor(
    readonly text: string,
    private readonly request: FastifyRequest,
    private readonly parseChecked: JsonParser,
  ) {}

  parse(): Promise<unknown> {
    return new Promise((resolve, reject) =>
      this.parseChecked(this.request, this.text, (error, value) => (error ? reject(error) : resolve(value))),
    );
  }
}

type JsonParser = (request: FastifyRequest, text: string, done: (error: Error | null, body?: unknown) => void) => void;

/**
 * Replaces Fastify's JSON body parser with the same parser (same prototype-poisoning refusals)
 * behind the checks of jsonTextProblem: such a body is a 400 before it is parsed.
 */
export function boundJsonBodies(app: App, maxDepth = MAX_JSON_DEPTH): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  const parseChecked: JsonParser = (request, text, done) => {
    const problem = jsonTextProblem(text, maxDepth);
    if (problem) {
      done(new AppError("bad_request", problem));
      return;
    }
    parseJson(request, text, done);
  };
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body.toString();
    if (request.routeOptions.config?.jsonText === true) {
      done(null, new JsonText(text, request, parseChecked));
      return;
    }
    parseChecked(request, text, done);
  });
}

/**
 * Urlencoded bodies for @fastify/formbody: flat (`a[b]=1` is the key "a[b]", never nesting), repeated
 * keys become lists, and a NUL (%00) is refused like in JSON.
 */
export function parseFormText(text: string): Record<string, unknown> {
  if (/%00/i.test(text) || text.includes("\0")) throw new AppError("bad_request", NUL_MESSAGE);
  return querystring.parse(text);
}
