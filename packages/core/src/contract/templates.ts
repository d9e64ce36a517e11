import { z } from "zod";
import { dataEnvelope } from "./common";
import { ZInteractiveWidget } from "./dashboards";

/**
 * A dashboard template: ready-made widgets over Demo widget types. Instances carry `sourceId: null`;
 * whoever instantiates a template gives every widget and instance new ids and the company's Demo
 * source (sourcesService.ensureDemoSource).
 */
export const ZTemplate = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  connector: z.string(),
  widgets: z.array(ZInteractiveWidget),
});
export type TTemplate = z.infer<typeof ZTemplate>;
export const ZTemplatesResponse = dataEnvelope(z.record(z.string(), ZTemplate));
