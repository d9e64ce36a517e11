import type { Page } from "@playwright/test";

/** An API call from inside the page, with the headers the app sends (docs/product.md §7); the parsed body or null. */
export async function call(page: Page, method: string, path: string, json?: unknown): Promise<unknown> {
  return page.evaluate(
    async ({ method, path, json }) => {
      const response = await fetch(path, {
        method,
        body: json === undefined ? undefined : JSON.stringify(json),
        headers: {
          Accept: "application/json",
          ...(json === undefined ? {} : { "Content-Type": "application/json" }),
          "x-requested-with": "XMLHttpRequest",
          "x-identification": sessionStorage.getItem("identification") ?? "",
        },
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response.status === 204 ? null : response.json();
    },
    { method, path, json },
  );
}
