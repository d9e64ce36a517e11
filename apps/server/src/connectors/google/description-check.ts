import type { FakeCall } from "../../../test/fakes/app";
import type { ApiDescription, DescribedRequest } from "../kit/description";

/**
 * For the Google connectors' description tests (<key>/description.test.ts): the requests a connector
 * sent to its fake, checked against the pinned description, and the fake's answers to them. The fakes
 * record requests, not answers, so each request is sent to the fake again and its answer checked: the
 * fakes answer from their fixtures, so the same request gets the same answer.
 */

/** What the Google fake serves beside the APIs (sign-in, its own switches): no API description covers it. */
const NOT_AN_API = /^\/(token|revoke|o\/oauth2\/|_fake\/|health)/;

/** Headers a replay needs to be answered as the original was. */
const REPLAYED = ["authorization", "content-type", "developer-token", "login-customer-id"];

export function describedRequest(origin: string, call: FakeCall): DescribedRequest {
  const url = new URL(call.url, origin);
  if (call.body === "") return { method: call.method, url };
  const type = String(call.headers["content-type"] ?? "");
  const body = type.includes("application/json") ? JSON.parse(call.body) : call.body;
  return { method: call.method, url, body };
}

export const apiCalls = (calls: readonly FakeCall[]) => calls.filter((call) => !NOT_AN_API.test(call.path));

/** The fake's answer to a request again. */
async function replay(request: DescribedRequest, call: FakeCall): Promise<{ status: number; body: unknown }> {
  const headers = Object.fromEntries(
    REPLAYED.flatMap((name) => (typeof call.headers[name] === "string" ? [[name, call.headers[name] as string]] : [])),
  );
  const answer = await fetch(request.url, {
    method: call.method,
    headers,
    ...(call.body === "" ? {} : { body: call.body }),
  });
  const text = await answer.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: checked as the text it is (a description expecting JSON reports it).
  }
  return { status: answer.status, body };
}

export interface DescriptionReport {
  /** Distinct API requests checked (METHOD url). */
  requests: string[];
  /** Every problem, prefixed with the request it is about. */
  problems: string[];
  /** Requests the fake answered with a failure (their answers were checked as Google's error body only). */
  failed: string[];
}

/** Checks each distinct API request among `calls`, and the fake's answer to it. */
export async function checkCalls(
  description: ApiDescription,
  origin: string,
  calls: readonly FakeCall[],
): Promise<DescriptionReport> {
  const seen = new Set<string>();
  const problems: string[] = [];
  const failed: string[] = [];
  for (const call of apiCalls(calls)) {
    const key = `${call.method} ${call.url} ${call.body}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const request = describedRequest(origin, call);
    const label = `${call.method} ${call.url}`;
    problems.push(...description.checkRequest(request).map((problem) => `${label}: ${problem}`));
    const answer = await replay(request, call);
    if (answer.status >= 300) failed.push(`${label} ${call.body} → ${answer.status} ${JSON.stringify(answer.body)}`);
    problems.push(
      ...description.checkResponse(request, answer.status, answer.body).map((problem) => `${label} → ${problem}`),
    );
  }
  return { requests: [...seen].map((key) => key.split(" ").slice(0, 2).join(" ")), problems, failed };
}
