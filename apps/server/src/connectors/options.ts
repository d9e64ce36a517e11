import type { TOption } from "@app/core";

/** A connector's declared metrics or dimensions as the options of a form's select. */
export const toOptions = (items: ReadonlyArray<{ key: string; label: string }>): TOption[] =>
  items.map((item) => ({ value: item.key, label: item.label }));
