import type { ApiDescription, DescribedRequest } from "../../src/connectors/kit/description";
import type { FakeCall } from "./app";

/**
 * The description checks over what a fake saw (apps/server/src/connectors/kit/description.ts): every
 * request a connector sent to its fake is checked against the provider's pinned description, and so is
 * the fake's answer to it, so the two directions are proved on the requests the product really builds.
 */

/** A recorded call as the description checks take it: method, full URL, parsed body. */
export function describedRequest(call: FakeCall): DescribedRequest {
  const url = new URL(call.path, "http://provider");
  for (const [name, value] of Object.entries(call.query)) url.searchParams.set(name, value);
  const type = String(call.headers["content-type"] ?? "");
  let body: unknown;
  if (call.body !== "" && type.includes("json")) body = JSON.parse(call.body);
  else if (call.body !== "" && type.includes("application/x-www-form-urlencoded")) {
    body = Object.fromEntries(new URLSearchParams(call.body));
  }
  return { method: call.method, url, body };
}

/** Each call's request and answer checked: the problems (none when all match), and how many were checked. */
export function checkCalls(description: ApiDescription, calls: FakeCall[]): { checked: number; problems: string[] } {
  const problems: string[] = [];
  for (const call of calls) {
    const request = describedRequest(call);
    problems.push(...description.checkRequest(request));
    if (!call.answer) problems.push(`${call.method} ${call.path}: no answer recorded`);
    else {
      const text = call.answer.body;
      let body: unknown = text;
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        // Not JSON: checked as the text it is (a described JSON answer reports it).
      }
      problems.push(...description.checkResponse(request, call.answer.status, body));
    }
  }
  return { checked: calls.length, problems: [...new Set(problems)] };
}
