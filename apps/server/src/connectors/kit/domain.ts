import { AppError } from "../../infra/errors";
import type { QueryInputs, SourceHandle } from "../types";

/**
 * The domain a widget asks about, as the SEO tools take it: no scheme, no path, lower case
 * ("https://www.Acme.com/blog" → "www.acme.com"). The widget's `domain` input when typed, else the
 * source's account; anything that is not a host name is the field's 422.
 */
export function domainOf(inputs: QueryInputs, source: Pick<SourceHandle, "account">): string {
  const typed = typeof inputs.domain === "string" && inputs.domain.trim() !== "" ? inputs.domain : source.account;
  const host = (typed ?? "")
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, "")
    .replace(/[/?#].*$/, "");
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host)) {
    throw AppError.validation({ domain: ["The domain field is required (a domain such as acme.com)."] });
  }
  return host;
}
