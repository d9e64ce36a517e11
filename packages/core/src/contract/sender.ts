import { z } from "zod";
import { dataEnvelope } from "./common";
import { ZCompany } from "./company";

export const SENDER_MESSAGES = {
  address: "The sender address must be a valid email address.",
  publicDomain: "The sender address must be on a public domain of your own (not a local network name).",
  notSet: "Set a sender address first.",
} as const;

/**
 * PUT /api/company/sender: the company's own sender address (white label, docs/product.md §3
 * `fromAddress`); null or "" removes it (reports then come from the product's no-reply address).
 */
export const ZSenderUpdate = z.strictObject({
  address: z
    .union([z.string().trim().max(200, SENDER_MESSAGES.address), z.null()], { error: SENDER_MESSAGES.address })
    .transform((value) => (value === "" ? null : value))
    .refine((value) => value === null || z.email().safeParse(value).success, SENDER_MESSAGES.address)
    .refine((value) => {
      // Only once it is an address at all (the first rule speaks for a malformed one).
      if (value === null || !z.email().safeParse(value).success) return true;
      const domain = value.split("@")[1]?.toLowerCase() ?? "";
      // Names that never resolve on the public internet cannot carry the DNS records.
      return (
        /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/.test(domain) && !/(^|\.)(localhost|local|internal|lan)$/.test(domain)
      );
    }, SENDER_MESSAGES.publicDomain),
});
export type TSenderUpdate = z.infer<typeof ZSenderUpdate>;

/** Both sender routes answer the company, whose emailDns, fromAddress and verifiedWhitelabel changed. */
export const ZSenderResponse = dataEnvelope(ZCompany);
