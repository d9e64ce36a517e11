const STORAGE_KEY = "identification";
let current = "";

/** Keeps the page data's identification for the x-identification header (docs/product.md §7), also across reloads of the tab. */
export function setIdentification(value: string): void {
  current = value;
  try {
    sessionStorage.setItem(STORAGE_KEY, value);
  } catch {
    // Storage can be unavailable (private mode); the in-memory copy still works.
  }
}

export function getIdentification(): string {
  if (current) return current;
  try {
    current = sessionStorage.getItem(STORAGE_KEY) ?? "";
  } catch {
    current = "";
  }
  return current;
}
