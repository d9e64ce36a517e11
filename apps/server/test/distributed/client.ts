/**
 * A browser-like HTTP client over real sockets: keeps cookies, sends the page's identification and the
 * XHR header like the SPA. One client (one cookie jar) can talk to any web process, as a browser
 * behind a load balancer does.
 */
export class HttpClient {
  private cookies = new Map<string, string>();
  identification = "";

  cookieHeader(): string {
    return [...this.cookies.entries()].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  private keep(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((a) => /max-age=0/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()));
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(
    base: string,
    method: string,
    url: string,
    options: { json?: unknown; form?: FormData; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: unknown; text: string }> {
    const headers: Record<string, string> = { cookie: this.cookieHeader(), ...options.headers };
    let body: string | FormData | undefined;
    if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    } else if (options.form) body = options.form;
    const response = await fetch(base + url, { method, headers, body, redirect: "manual" });
    this.keep(response);
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: response.status, body: parsed, text };
  }

  async pageData(base: string): Promise<Record<string, unknown>> {
    const response = await this.request(base, "GET", "/api/page-data");
    const data = response.body as Record<string, unknown>;
    this.identification = String(data.identification ?? "");
    return data;
  }

  /** An /api call as the SPA makes it. The identification is the session's, valid on every process. */
  async api(base: string, method: string, url: string, json?: unknown, headers: Record<string, string> = {}) {
    if (!this.identification) await this.pageData(base);
    return this.request(base, method, url, {
      json,
      headers: { "x-requested-with": "XMLHttpRequest", "x-identification": this.identification, ...headers },
    });
  }

  async apiForm(base: string, method: string, url: string, form: FormData) {
    if (!this.identification) await this.pageData(base);
    return this.request(base, method, url, {
      form,
      headers: { "x-requested-with": "XMLHttpRequest", "x-identification": this.identification },
    });
  }

  /** Auth routes (no identification yet). */
  async auth(base: string, url: "/register" | "/login" | "/logout", json: unknown) {
    const response = await this.request(base, "POST", url, {
      json,
      headers: {
        "x-requested-with": "XMLHttpRequest",
        ...(this.identification ? { "x-identification": this.identification } : {}),
      },
    });
    if (response.status === 200 && url !== "/logout") await this.pageData(base);
    return response;
  }
}

export async function registerOwner(base: string, label: string) {
  const client = new HttpClient();
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  const password = "proof-secret-1";
  const response = await client.auth(base, "/register", {
    name: `Owner ${label}`,
    email,
    password,
    password_confirmation: password,
    terms_consent: true,
    age_consent: true,
    dashboards: 5,
  });
  if (response.status !== 200) throw new Error(`registration failed: ${response.status} ${response.text}`);
  await client.api(base, "POST", "/api/user/data", { intro_passed: true });
  const page = await client.pageData(base);
  return { client, email, password, company: page.company as { id: string } };
}
