import { type TOption, type TSource, ZOption } from "@app/core";
import { z } from "zod";
import type { SourcesTable } from "../../infra/db/schema";

const ZStoredProperties = z.array(ZOption);

/** The stored property list; a damaged value reads as empty rather than breaking the sources page. */
export function storedProperties(row: Pick<SourcesTable, "properties">): TOption[] {
  try {
    const parsed = ZStoredProperties.safeParse(JSON.parse(row.properties));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** A source as the API shows it (docs/product.md §3): never its credentials. */
export function presentSource(row: SourcesTable): TSource {
  return {
    id: row.id,
    name: row.name,
    account: row.account,
    invalid: row.invalid === 1,
    properties: storedProperties(row),
    expiresAt: row.credentials_expire_at ?? null,
  };
}
