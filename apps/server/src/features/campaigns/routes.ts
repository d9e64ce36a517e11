import { API } from "@app/core";
import { type App, actorOf } from "../../infra/http";
import type { CampaignsService } from "./service";

/** Mission Control groups and domains (docs/decisions.md, "Mission Control, first part"). Thin: the contract validates, the service decides. */
export function campaignRoutes(app: App, campaigns: CampaignsService) {
  const tags = ["mission control"];
  groupRoutes(app, campaigns, tags);
  domainRoutes(app, campaigns, tags);
}

/** The company's groups, their alert settings and the sources they may use. */
function groupRoutes(app: App, campaigns: CampaignsService, tags: string[]) {
  app.get(
    "/api/campaigns",
    {
      schema: {
        tags,
        summary: "The company's groups with their domain and open-alert counts",
        response: { 200: API.campaignsList.output },
      },
    },
    async (request) => ({ data: await campaigns.list(actorOf(request)) }),
  );

  app.get(
    "/api/campaigns/sources",
    {
      schema: {
        tags,
        summary: "Where a group's metrics can come from on this server (the create form's choices)",
        response: { 200: API.campaignMetricsSources.output },
      },
    },
    async () => ({ data: campaigns.metricsSources() }),
  );

  app.get(
    "/api/campaigns/alert-settings",
    {
      schema: {
        tags,
        summary: "The company's alert rules and digest frequency",
        response: { 200: API.campaignAlertSettings.output },
      },
    },
    async (request) => ({ data: await campaigns.alertSettings(actorOf(request)) }),
  );

  app.put(
    "/api/campaigns/alert-settings",
    {
      schema: {
        tags,
        summary: "Change the company's alert rules and digest frequency (admin only)",
        body: API.campaignAlertSettingsUpdate.body,
        response: { 200: API.campaignAlertSettingsUpdate.output },
      },
    },
    async (request) => ({ data: await campaigns.saveAlertSettings(actorOf(request), request.body) }),
  );

  app.post(
    "/api/campaigns",
    {
      schema: {
        tags,
        summary: "Create a group (admin only)",
        body: API.campaignCreate.body,
        response: { 200: API.campaignCreate.output },
      },
    },
    async (request) => ({ data: await campaigns.create(actorOf(request), request.body) }),
  );

  app.get(
    "/api/campaigns/:id",
    {
      schema: {
        tags,
        summary: "A group with its domains and their 7- or 30-day metric changes",
        params: API.campaignShow.params,
        querystring: API.campaignShow.query,
        response: { 200: API.campaignShow.output },
      },
    },
    async (request) => ({ data: await campaigns.get(actorOf(request), request.params.id, request.query.window) }),
  );

  app.put(
    "/api/campaigns/:id",
    {
      schema: {
        tags,
        summary: "Rename a group or change its metrics source (admin only)",
        params: API.campaignUpdate.params,
        body: API.campaignUpdate.body,
        response: { 200: API.campaignUpdate.output },
      },
    },
    async (request) => ({ data: await campaigns.update(actorOf(request), request.params.id, request.body) }),
  );

  app.delete(
    "/api/campaigns/:id",
    {
      schema: {
        tags,
        summary: "Delete a group with its domains and their data (admin only)",
        params: API.campaignDelete.params,
      },
    },
    async (request, reply) => {
      await campaigns.remove(actorOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
}

/** The domains of one group: add, remove, snooze and wake their alerts. */
function domainRoutes(app: App, campaigns: CampaignsService, tags: string[]) {
  app.post(
    "/api/campaigns/:id/domains",
    {
      schema: {
        tags,
        summary: "Add a domain (or a URL of it) to a group",
        params: API.campaignDomainAdd.params,
        body: API.campaignDomainAdd.body,
        response: { 200: API.campaignDomainAdd.output },
      },
    },
    async (request) => ({
      data: await campaigns.addDomain(actorOf(request), request.params.id, request.body.domain),
    }),
  );

  app.delete(
    "/api/campaigns/:id/domains/:domainId",
    {
      schema: {
        tags,
        summary: "Remove a domain from a group, with its data and alerts",
        params: API.campaignDomainRemove.params,
      },
    },
    async (request, reply) => {
      await campaigns.removeDomain(actorOf(request), request.params.id, request.params.domainId);
      return reply.code(204).send();
    },
  );

  app.post(
    "/api/campaigns/:id/domains/:domainId/snooze",
    {
      schema: {
        tags,
        summary: "Snooze a domain's alerts for a week",
        params: API.campaignDomainSnooze.params,
        body: API.campaignDomainSnooze.body,
        response: { 200: API.campaignDomainSnooze.output },
      },
    },
    async (request) => ({
      data: await campaigns.snooze(actorOf(request), request.params.id, request.params.domainId),
    }),
  );

  app.delete(
    "/api/campaigns/:id/domains/:domainId/snooze",
    {
      schema: {
        tags,
        summary: "Show a snoozed domain's alerts again",
        params: API.campaignDomainUnsnooze.params,
        response: { 200: API.campaignDomainUnsnooze.output },
      },
    },
    async (request) => ({
      data: await campaigns.unsnooze(actorOf(request), request.params.id, request.params.domainId),
    }),
  );
}
