import { z } from "zod";
import { dataEnvelope } from "./common";

/** The most charts one request may ask to be drawn: a dashboard's charts in view, asked together. */
export const CHART_SNAPSHOTS_MAX_ITEMS = 32;
/** The largest side of a drawing, in CSS pixels (a wall display's widest card, with room). */
export const CHART_SNAPSHOT_MAX_SIDE = 4096;

const zSide = z.number().int().min(1).max(CHART_SNAPSHOT_MAX_SIDE);

/**
 * POST /api/chart-snapshots: a member's charts drawn by the server as SVG, the first frame of the
 * owner's dashboard on a browser that keeps no drawing of them. `input` is the web's `ChartInput`
 * (apps/web/src/features/widgets/charts/chart-common.ts), the same object the browser's snapshot worker
 * is given; the server hands it to the same drawing code (the web build's server bundle), which refuses
 * one it cannot draw, item by item.
 */
export const ZChartSnapshotsRequest = z.object({
  items: z
    .array(
      z.object({
        input: z.record(z.string(), z.unknown()),
        size: z.object({ width: zSide, height: zSide }),
      }),
    )
    .min(1)
    .max(CHART_SNAPSHOTS_MAX_ITEMS),
});
export type TChartSnapshotsRequest = z.infer<typeof ZChartSnapshotsRequest>;

/** Each item's SVG, in the order asked, or why it could not be drawn (the browser then draws it). */
export const ZChartSnapshotsResponse = dataEnvelope(
  z.array(z.union([z.object({ svg: z.string() }), z.object({ error: z.string() })])),
);
export type TChartSnapshotsResponse = z.infer<typeof ZChartSnapshotsResponse>;
