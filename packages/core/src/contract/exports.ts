import { z } from "zod";
import { isValidDay } from "../dates/day";

/** Paper sizes and orientations a PDF export is made in (docs/product.md §7, our defaults: A4 portrait). */
export const PDF_FORMATS = ["A4", "Letter"] as const;
export const PDF_ORIENTATIONS = ["portrait", "landscape"] as const;

export const PDF_MESSAGES = {
  dateRange: "The date_range must be JSON with startDate and endDate as yyyy-MM-dd.",
  timezone: "The timezone must be a time zone name such as Europe/Berlin.",
  empty: "This dashboard has no widgets to export.",
  failed: "The PDF could not be made. Please try again in a few minutes.",
} as const;

const day = z.string().refine(isValidDay);

/** The period of an export: the dashboard's Copy URL range (compare dates only for a custom comparison). */
export const ZPdfDateRange = z.object({
  startDate: day,
  endDate: day,
  compareStartDate: day.nullish(),
  compareEndDate: day.nullish(),
});
export type TPdfDateRange = z.infer<typeof ZPdfDateRange>;

/**
 * GET /api/dashboards/{permalink}/pdf (and /realtime/pdf): `timezone`, optional `date_range` as JSON,
 * optional `check` (the value a 202 answered, sent back while polling), and the paper.
 */
export const ZPdfQuery = z.object({
  timezone: z.string().max(64, PDF_MESSAGES.timezone).optional(),
  date_range: z
    .string()
    .max(500, PDF_MESSAGES.dateRange)
    .transform((text, context) => {
      try {
        const parsed = ZPdfDateRange.safeParse(JSON.parse(text));
        if (parsed.success) return parsed.data;
      } catch {
        // reported below
      }
      context.addIssue({ code: "custom", message: PDF_MESSAGES.dateRange });
      return z.NEVER;
    })
    .optional(),
  check: z
    .string()
    .regex(/^[a-f0-9]{64}$/)
    .optional(),
  format: z.enum(PDF_FORMATS).default("A4"),
  orientation: z.enum(PDF_ORIENTATIONS).default("portrait"),
});
export type TPdfQuery = z.infer<typeof ZPdfQuery>;

/** 202: the PDF is being made; ask again with this check value (304 until it is ready). */
export const ZPdfPending = z.object({ check: z.string() });
