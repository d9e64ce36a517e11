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

/** A multipart API call from inside the page (the dashboard save's form), with the app's headers; the parsed body. */
export async function callForm(
  page: Page,
  method: string,
  path: string,
  form?: Record<string, string>,
): Promise<Record<string, unknown>> {
  return page.evaluate(
    async ({ method, path, form }) => {
      let body: FormData | undefined;
      if (form) {
        body = new FormData();
        for (const [key, value] of Object.entries(form)) body.append(key, value);
      }
      const response = await fetch(path, {
        method,
        body,
        headers: {
          Accept: "application/json",
          "x-requested-with": "XMLHttpRequest",
          // The page's identification, as the app sends it (docs/product.md §7).
          "x-identification": sessionStorage.getItem("identification") ?? "",
        },
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response.json();
    },
    { method, path, form },
  );
}
