import type { TCompany, TCompanyDelete } from "@app/core";
import { api } from "../../lib/api";

export async function fetchCompany(): Promise<TCompany> {
  return (await api<{ data: TCompany }>("/api/company")).data;
}

/** Company settings as multipart form data (the logo is a file part). */
export async function updateCompany(form: FormData): Promise<TCompany> {
  return (await api<{ data: TCompany }>("/api/company", { method: "POST", form })).data;
}

/** Deletes the account (204, null here) or cancels the subscription (the updated company). */
export async function deleteCompany(body: TCompanyDelete): Promise<TCompany | null> {
  const result = await api<{ data: TCompany } | undefined>("/api/company", { method: "DELETE", json: body });
  return result?.data ?? null;
}
