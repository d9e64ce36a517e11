import type { TPassiveInputs } from "../contract/dashboards";

export type HistoricArticle = NonNullable<TPassiveInputs["articles"]>[number];

/**
 * A historic widget keeps dated notes ("what happened in March"); it shows the articles whose own
 * range overlaps the dashboard's range, the most recent first, so each period reads its own story.
 */
export function articlesForRange(
  articles: readonly HistoricArticle[],
  startDate: string,
  endDate: string,
): HistoricArticle[] {
  return articles
    .filter((article) => article.range.startDate <= endDate && article.range.endDate >= startDate)
    .sort((a, b) => (a.range.startDate < b.range.startDate ? 1 : a.range.startDate > b.range.startDate ? -1 : 0));
}

/** An article can be saved once it has a header and a range whose end is not before its start. */
export function isArticleComplete(article: HistoricArticle): boolean {
  const { startDate, endDate } = article.range;
  return article.header.trim() !== "" && Boolean(startDate) && Boolean(endDate) && startDate <= endDate;
}
