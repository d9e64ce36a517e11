/**
 * The ways providers page a list, each followed in one place with a bound on the pages read (a
 * provider that keeps answering "there is more" must not hold a widget forever).
 */

/**
 * Follows a cursor (Google's `nextPageToken`, Meta's `paging.cursors.after`, LinkedIn's
 * `metadata.nextPageToken`): asks with no cursor first, then with each answer's next cursor until
 * there is none or `maxPages` were read. Returns the answers in order.
 */
export async function followCursor<Page>(
  maxPages: number,
  ask: (cursor: string | undefined) => Promise<Page>,
  nextCursor: (page: Page) => string | null | undefined,
): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await ask(cursor);
    pages.push(answer);
    cursor = nextCursor(answer) ?? undefined;
    if (!cursor) break;
  }
  return pages;
}

/**
 * Follows an offset (Mailchimp's `offset` / `total_items`): asks from the number of items read so far
 * until the total is read, an empty page comes, or `maxPages` were read.
 */
export async function followOffset<T>(
  maxPages: number,
  ask: (offset: number) => Promise<{ items: T[]; total: number }>,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 0; page < maxPages; page++) {
    const answer = await ask(items.length);
    items.push(...answer.items);
    if (answer.items.length === 0 || items.length >= answer.total) break;
  }
  return items;
}

/**
 * Numbered pages whose count the first answer tells (WooCommerce's `X-WP-TotalPages`): page 1 first,
 * then the rest at once, at most `maxPages` in all. `ask(1)` must return the page count it learnt.
 */
export async function numberedPages<Page>(
  maxPages: number,
  ask: (page: number) => Promise<Page>,
  pageCount: () => number,
): Promise<Page[]> {
  const first = await ask(1);
  const rest = await Promise.all(
    Array.from({ length: Math.min(pageCount(), maxPages) - 1 }, (_, index) => ask(index + 2)),
  );
  return [first, ...rest];
}
