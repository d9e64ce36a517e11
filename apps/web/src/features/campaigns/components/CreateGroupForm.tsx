import {
  CAMPAIGN_MESSAGES,
  type CampaignMetricsSource,
  MAX_CAMPAIGN_NAME,
  suggestedCampaignMetricsSource,
} from "@app/core";
import { Alert, Button, Card, Group, Radio, Skeleton, Stack, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { IconAlert } from "../../../ui/icons";
import { useConnectors, useSources } from "../../sources";
import { useCreateCampaign, useMetricsSources } from "../hooks";

/** What each source means, under its label. */
const SOURCE_DESCRIPTIONS: Record<CampaignMetricsSource, string> = {
  sources:
    "Your connected Search Console properties and Ahrefs source. A domain none of them covers says what to connect.",
  ahrefs:
    "Domain rating, referring domains, keywords and organic traffic for any domain, from this server's Ahrefs key.",
  demo: "Made-up but believable numbers, to try Mission Control before connecting anything.",
};

/** Names a new group and picks where its metrics come from; on success opens it, where its domains are added. */
export function CreateGroupForm() {
  const navigate = useNavigate();
  const create = useCreateCampaign();
  const sources = useMetricsSources();
  const connected = useSources();
  const catalogue = useConnectors();
  const [name, setName] = useState("");
  const [picked, setPicked] = useState<CampaignMetricsSource | null>(null);
  // Until one is picked: the company's connected sources when one can feed a group, else the server's
  // Ahrefs key, else nothing (demo numbers only when chosen; connected sources it has none of would
  // show no number).
  const source: CampaignMetricsSource | null =
    picked ??
    (sources.data && connected.data && catalogue.data
      ? suggestedCampaignMetricsSource(
          sources.data,
          connected.data.filter((entry) => !entry.invalid).map((entry) => entry.name),
          catalogue.data.filter((entry) => entry.domainMetrics).map((entry) => entry.key),
        )
      : null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!source) {
      setErrors({
        ...(name.trim() ? {} : { name: CAMPAIGN_MESSAGES.nameRequired }),
        metrics_source: "Choose where this group's metrics come from.",
      });
      return;
    }
    setErrors({});
    create.mutate(
      { name, source },
      {
        onSuccess: (group) => navigate(`/groups/${encodeURIComponent(group.id)}`),
        onError: (error) => {
          const fields = fieldErrors(error) ?? {};
          setErrors(Object.keys(fields).length > 0 ? fields : { general: errorMessage(error) });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xl">
        {errors.general ? (
          <Alert color="red" icon={<IconAlert />}>
            {errors.general}
          </Alert>
        ) : null}
        <Card>
          <TextInput
            label="Group name"
            placeholder="e.g. Acme Inc. websites"
            description="Only your team sees it. You add the domains on the next page."
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
            required
            maxLength={MAX_CAMPAIGN_NAME}
            maw={520}
          />
          <Radio.Group
            mt="lg"
            label="Metrics from"
            value={source ?? null}
            onChange={(value) => setPicked(value as CampaignMetricsSource)}
            error={errors.metrics_source}
          >
            <Stack gap="sm" mt="xs">
              {sources.isPending || connected.isPending || catalogue.isPending ? (
                <Skeleton h={72} maw={520} />
              ) : (
                (sources.data ?? []).map((option) => (
                  <Radio
                    key={option.id}
                    value={option.id}
                    label={option.label}
                    description={option.reason ?? SOURCE_DESCRIPTIONS[option.id]}
                    disabled={!option.available}
                  />
                ))
              )}
            </Stack>
          </Radio.Group>
        </Card>
        <Group justify="flex-end" gap="sm">
          <Button component={Link} to="/groups" variant="default">
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create group
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
