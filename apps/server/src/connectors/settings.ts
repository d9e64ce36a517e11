import type { z } from "zod";

/**
 * The providers' part of the server's configuration (`config.providers`). Each provider's folder adds
 * its own member to this interface next to its settings (`declare module "../settings"` in
 * `<folder>/settings.ts`), so the type stays readable and no list of providers is kept here.
 */
// biome-ignore lint/suspicious/noEmptyInterface: each provider's settings.ts adds its member (declaration merging)
export interface ProvidersConfig {}

/**
 * One provider's settings: its environment variables (zod, their part of the server's schema, which
 * `infra/config.ts` composes from the registry; `.env.example` lists the same) and the part of
 * `config.providers` they become. A connector names its provider's settings in `Connector.settings`;
 * the connectors of a family share one.
 */
export interface ProviderSettings<Shape extends z.ZodRawShape = z.ZodRawShape, Value = unknown> {
  /** Its member of `config.providers`. */
  name: keyof ProvidersConfig & string;
  env: Shape;
  read(env: z.infer<z.ZodObject<Shape>>): Value;
}

/** Declares a provider's settings (typed: `read` sees the variables as `env` parses them). */
export function defineSettings<Shape extends z.ZodRawShape, Value>(
  settings: ProviderSettings<Shape, Value>,
): ProviderSettings<Shape, Value> {
  return settings;
}
