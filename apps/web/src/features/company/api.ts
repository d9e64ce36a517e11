import type { TCompany, TCompanyDelete, ZBillingDetailsUpdate } from "@app/core";
import type { z } from "zod";
import { call } from "../../lib/api";

export async function fetchCompany(): Promise<TCompany> {
  return (await call("companyShow")).data;
}

/** Company settings as multipart form data (the logo is a file part). */
export async function updateCompany(form: FormData): Promise<TCompany> {
  return (await call("companyUpdate", { form })).data;
}

/** Deletes the account (204, null here) or cancels the subscription (the updated company). */
export async function deleteCompany(body: TCompanyDelete): Promise<TCompany | null> {
  return (await call("companyDelete", { body }))?.data ?? null;
}

/** PUT /api/company/sender: the company's own sender address (null removes it). */
export async function setSenderAddress(address: string | null): Promise<TCompany> {
  return (await call("companySenderUpdate", { body: { address } })).data;
}

/** POST /api/company/sender/verify: looks the sender's DNS records up. */
export async function verifySender(): Promise<TCompany> {
  return (await call("companySenderVerify")).data;
}

/** POST /api/company/domain/verify: looks the custom domain's CNAME up. */
export async function verifyDomain(): Promise<TCompany> {
  return (await call("companyDomainVerify")).data;
}

/** PUT /api/company/billing-details: what the company's invoices are made out to (the whole section). */
export async function saveBillingDetails(body: z.input<typeof ZBillingDetailsUpdate>): Promise<TCompany> {
  return (await call("companyBillingDetails", { body })).data;
}
