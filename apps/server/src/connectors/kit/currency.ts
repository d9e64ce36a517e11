/** Where a connector keeps account currencies (an LRU cache, a Map): only get and set are used. */
export interface CurrencyCache {
  get(account: string): string | undefined;
  set(account: string, currency: string): unknown;
}

/**
 * An account's currency, for money columns: the cached one, else asked of the provider once and
 * cached when it said one. An account's currency does not change once the account is made, so no
 * widget asks twice; an answer without one is not cached (the next widget asks again).
 */
export async function cachedCurrency(
  cache: CurrencyCache,
  account: string,
  ask: () => Promise<string | null | undefined>,
): Promise<string | null> {
  const cached = cache.get(account);
  if (cached) return cached;
  const currency = (await ask()) ?? null;
  if (currency) cache.set(account, currency);
  return currency;
}
