import type { TWidget } from "@app/core";
import { newId } from "../../infra/security";
import type { SourcesService } from "./service";
import { templateByKey } from "./templates";

/**
 * Turns a template into a company's widgets: fresh ids and hashes, and every instance pointed at the
 * company's Demo source (created on first use). Matches the dashboards feature's TemplateResolver;
 * null for an unknown key.
 */
export function templateResolver(sources: SourcesService) {
  return async (companyId: string, key: string): Promise<TWidget[] | null> => {
    const template = templateByKey(key);
    if (!template) return null;
    const demo = await sources.ensureDemoSource(companyId);
    return template.widgets.map((widget) => ({
      ...widget,
      id: newId(),
      hash: newId(8),
      instances: widget.instances.map((instance) => ({ ...instance, id: newId(), sourceId: demo.id })),
    }));
  };
}
