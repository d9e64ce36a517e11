import { shiftDay } from "@app/core";

/** Today in UTC, as `YYYY-MM-DD`. */
export const todayUtc = (): string => new Date().toISOString().slice(0, 10);

/**
 * A range touching today (its stored results are due again after 15 minutes), `days` long whatever the
 * date. A fixed first day grows with the calendar: on the 31st day it crossed the 30-day window Instagram's
 * profile insights are asked in, and a test expecting one request per query saw two.
 */
export const liveRange = (days = 14) => ({ startDate: shiftDay(todayUtc(), 1 - days), endDate: todayUtc() });
