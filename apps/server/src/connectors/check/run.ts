import { type DayRange, type TTable, ZTable } from "@app/core";
import { ProviderError } from "../http/errors";
import { observeExchanges, type ProviderExchange } from "../http/exchanges";
import type { ApiDescription, DescribedRequest } from "../kit/description";
import type { Connector, SourceHandle } from "../types";
import { sampleInputs } from "./inputs";
import { createScrubber, type Scrubber } from "./scrub";

/**
 * The live check (docs/connectors.md, "Checking connectors against the providers"): one small query per
 * widget type a connector offers, with a source's real credentials, each answer validated against the
 * provider's own description where the connector pins one. One line per type:
 * `<connector> <widget type> ok|wrong-shape|refused|quota|skipped <detail>`.
 */
export type CheckOutcome = "ok" | "wrong-shape" | "refused" | "quota" | "skipped";

export interface CheckLine {
  connector: string;
  type: string;
  outcome: CheckOutcome;
  detail: string;
}

/** One query's exchanges, scrubbed: what `--record` saves and the replay serves. */
export interface Recording {
  connector: string;
  type: string;
  inputs: Record<string, unknown>;
  range: DayRange;
  timezone: string;
  /** The source as the replay must present it: its placeholders in place of the real values. */
  source: {
    account: string | null;
    credentials: Record<string, string>;
    properties: { value: string; label: string }[];
  };
  exchanges: RecordedExchange[];
  /** The table the provider's answers made, scrubbed like them: what a replay must give again. */
  table: TTable;
}

export interface RecordedExchange {
  provider: string;
  method: string;
  /** The address as sent, scrubbed. */
  url: string;
  requestBody?: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface CheckOptions {
  range: DayRange;
  timezone?: string;
  /** Operator-given inputs by widget type (`--input type.key=value`). */
  inputs?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Only these widget types (default: all the connector offers). */
  types?: readonly string[];
  /** Called with each query's scrubbed recording when `--record` is on. */
  record?: (recording: Recording) => Promise<void>;
}

const line = (connector: string, type: string, outcome: CheckOutcome, detail: string): CheckLine => ({
  connector,
  type,
  outcome,
  detail,
});

/** Option lists that name the client's accounts (their ids and names are scrubbed from recordings). */
const ACCOUNT_LISTS = /propert|account|customer|location|site|page|advertiser|organi[sz]ation|project|audience/i;

/** The described-request form of an exchange. */
function described(exchange: ProviderExchange): DescribedRequest {
  let body: unknown;
  if (exchange.requestBody !== undefined) {
    try {
      body = JSON.parse(exchange.requestBody);
    } catch {
      body = Object.fromEntries(new URLSearchParams(exchange.requestBody));
    }
  }
  return { method: exchange.method, url: new URL(exchange.url), body };
}

/** Problems the provider's description finds in a query's exchanges (requests and answers). */
export function describedProblems(description: ApiDescription, exchanges: readonly ProviderExchange[]): string[] {
  const problems: string[] = [];
  for (const exchange of exchanges) {
    const request = described(exchange);
    if (description.covers && !description.covers(request)) continue;
    const where = `${exchange.method} ${request.url.pathname}`;
    for (const problem of description.checkRequest(request)) problems.push(`request ${where}: ${problem}`);
    if (exchange.status < 400) {
      for (const problem of description.checkResponse(request, exchange.status, exchange.body)) {
        problems.push(`answer to ${where}: ${problem}`);
      }
    }
  }
  return problems;
}

/** What a failed query means for the check's line. */
function failureLine(connector: string, type: string, error: unknown): CheckLine {
  if (error instanceof ProviderError) {
    const detail = `${error.kind}${error.httpStatus ? ` ${error.httpStatus}` : ""}: ${error.reason}`;
    if (error.kind === "quota" || error.kind === "rate") return line(connector, type, "quota", detail);
    // An answer the connector could not read is exactly what this check looks for.
    if (error.kind === "server" && /unexpected answer|could not be read|broke off/.test(error.reason)) {
      return line(connector, type, "wrong-shape", detail);
    }
    return line(connector, type, "refused", detail);
  }
  const message = error instanceof Error ? error.message : String(error);
  const errors = (error as { errors?: Record<string, string[]> })?.errors;
  const said = errors ? Object.values(errors).flat().join("; ") : message;
  return line(connector, type, "refused", said || message);
}

function scrubberFor(source: SourceHandle, extraIds: readonly string[], extraNames: readonly string[]): Scrubber {
  return createScrubber({
    // A credential's secret parts (tokens, keys); its expiry or a shop's address are no secrets, and a
    // replay needs them as they were.
    secrets: Object.entries(source.credentials)
      .filter(([name, value]) => /token|secret|key|password|code/i.test(name) && !/^[\d:.TZ-]+$/.test(value))
      .map(([, value]) => value),
    ids: [...(source.account ? [source.account] : []), ...source.properties.map((option) => option.value), ...extraIds],
    names: [
      ...(source.account ? [source.account] : []),
      ...source.properties.map((option) => option.label),
      ...extraNames,
    ],
  });
}

/** Checks every widget type of one connector with one source. */
export async function checkSource(
  connector: Connector,
  given: SourceHandle,
  options: CheckOptions,
): Promise<CheckLine[]> {
  const description = connector.description ? await connector.description() : null;
  const timezone = options.timezone ?? "UTC";
  const lines: CheckLine[] = [];
  for (const config of connector.widgetTypes) {
    if (options.types && !options.types.includes(config.type)) continue;
    // A runtime of its own per type: what a connector keeps per runtime (a shop's time zone, a page's
    // token) is asked again, so each type's recording holds everything its replay needs.
    const source: SourceHandle = { ...given, runtime: { ...given.runtime } };
    const exchanges: ProviderExchange[] = [];
    // Option lists the form was filled from name the account's ids and names too: scrubbed as well.
    const listed: { value: string; label: string }[] = [];
    try {
      const sample = await observeExchanges(
        (exchange) => exchanges.push(exchange),
        () =>
          sampleInputs(
            config,
            async (kind, form) => {
              const options = await connector.options(kind, { source, form });
              if (ACCOUNT_LISTS.test(kind)) listed.push(...options);
              return options;
            },
            options.inputs?.[config.type] ?? {},
          ),
      );
      if ("skipped" in sample) {
        lines.push(line(connector.key, config.type, "skipped", sample.skipped));
        continue;
      }
      const queryExchanges: ProviderExchange[] = [];
      const table = await observeExchanges(
        (exchange) => queryExchanges.push(exchange),
        () => connector.query({ source, type: config.type, inputs: sample.inputs, range: options.range, timezone }),
      );
      exchanges.push(...queryExchanges);
      const problems = description ? describedProblems(description, exchanges) : [];
      const shape = ZTable.safeParse(table);
      if (!shape.success) problems.push(`the table: ${shape.error.issues[0]?.message}`);
      if (options.record) {
        const scrub = scrubberFor(
          source,
          listed.map((option) => option.value),
          listed.map((option) => option.label),
        );
        // Everything asked, the form's lists included: a replay may need them (a page's token comes with the page list).
        await options.record(
          recordingOf(
            { connector: connector.key, type: config.type, inputs: sample.inputs, range: options.range, timezone },
            source,
            exchanges,
            table,
            scrub,
          ),
        );
      }
      if (problems.length > 0) {
        lines.push(
          line(
            connector.key,
            config.type,
            "wrong-shape",
            `${problems[0]}${problems.length > 1 ? ` (+${problems.length - 1} more)` : ""}`,
          ),
        );
      } else {
        const described = description ? `, checked against ${description.source.url.split("/").pop()}` : "";
        lines.push(
          line(
            connector.key,
            config.type,
            "ok",
            `${table.metrics.length} metrics, ${table.rows.length} rows from ${queryExchanges.length} requests${described}`,
          ),
        );
      }
    } catch (error) {
      lines.push(failureLine(connector.key, config.type, error));
    }
  }
  return lines;
}

function recordingOf(
  query: { connector: string; type: string; inputs: Record<string, unknown>; range: DayRange; timezone: string },
  source: SourceHandle,
  exchanges: readonly ProviderExchange[],
  table: TTable,
  scrub: Scrubber,
): Recording {
  // The exchanges first: the ids their answers name (a search engine's id) are then known when the
  // inputs and the source, which chose among them, are scrubbed.
  const scrubbed = exchanges.map((exchange) => ({
    provider: exchange.provider,
    method: exchange.method,
    url: scrub.url(exchange.url),
    ...(exchange.requestBody === undefined ? {} : { requestBody: scrub.body(exchange.requestBody) }),
    status: exchange.status,
    headers: scrub.headers(exchange.responseHeaders),
    body: scrub.value(exchange.body),
  }));
  return {
    ...query,
    inputs: scrub.value(query.inputs) as Record<string, unknown>,
    source: {
      account: source.account === null ? null : scrub.text(source.account),
      credentials: scrub.value(source.credentials) as Record<string, string>,
      properties: source.properties.map((option) => ({
        value: scrub.text(option.value),
        label: scrub.text(option.label),
      })),
    },
    exchanges: scrubbed,
    // Only the rows' labels can name the client (a campaign, a page); column keys are the product's own.
    table: {
      ...table,
      rows: table.rows.map((row) => ({ ...row, dimension: row.dimension === null ? null : scrub.text(row.dimension) })),
    },
  };
}

/** The table's lines and the last one, `N/M ok`. */
export function formatLines(lines: readonly CheckLine[]): string {
  const ok = lines.filter((entry) => entry.outcome === "ok").length;
  return [
    ...lines.map((entry) => `${entry.connector} ${entry.type} ${entry.outcome} ${entry.detail}`.trimEnd()),
    `${ok}/${lines.length} ok`,
  ].join("\n");
}
