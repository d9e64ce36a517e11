/**
 * The DNS records a company adds so mail "from" its own domain is trusted (docs/product.md §3 emailDns):
 * SPF (the product's servers may send for the domain), DKIM (the public half of the company's key) and
 * a return-path CNAME (bounces come back to the product). Pure: built from the sender row and config.
 */

export interface SenderRecord {
  kind: "spf" | "dkim" | "return-path" | "custom-domain";
  type: "TXT" | "CNAME";
  host: string;
  value: string;
}

/** DNS TXT strings hold at most 255 characters; longer values are split and joined again by resolvers. */
export function splitTxt(value: string): string[] {
  const parts: string[] = [];
  for (let index = 0; index < value.length; index += 255) parts.push(value.slice(index, index + 255));
  return parts;
}

export function senderRecords(
  sender: { domain: string; selector: string; dkimPublic: string },
  config: { spfInclude: string; returnPathHost: string },
): SenderRecord[] {
  return [
    { kind: "spf", type: "TXT", host: sender.domain, value: `v=spf1 include:${config.spfInclude} ~all` },
    {
      kind: "dkim",
      type: "TXT",
      host: `${sender.selector}._domainkey.${sender.domain}`,
      value: `v=DKIM1; k=rsa; p=${sender.dkimPublic}`,
    },
    { kind: "return-path", type: "CNAME", host: `bounces.${sender.domain}`, value: config.returnPathHost },
  ];
}

/** Whether the TXT strings found at a host carry the record (whitespace and case of tags aside). */
export function txtMatches(kind: SenderRecord["kind"], expected: SenderRecord, found: string[][]): boolean {
  const values = found.map((chunks) => chunks.join(""));
  if (kind === "spf") {
    // Another SPF policy may list more includes; ours must be among them.
    const include = expected.value.split(" ")[1];
    return values.some((value) => value.startsWith("v=spf1") && value.split(/\s+/).includes(include));
  }
  const key = (text: string) => /(?:^|;)\s*p=([A-Za-z0-9+/=\s]+)/.exec(text)?.[1]?.replace(/\s+/g, "") ?? "";
  return values.some((value) => key(value) !== "" && key(value) === key(expected.value));
}
