import { Alert, Stack, Text, Title } from "@mantine/core";
import { useMemo } from "react";
import { ConnectedSources, ConnectorCatalogue, sourceLabels, useConnectors, useSources } from "../features/sources";
import { errorMessage } from "../lib/api";
import { PageLoader } from "../ui/AppLoader";
import { IconAlert } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

/** /company/sources */
export default function CompanySourcesScreen() {
  const sources = useSources();
  const connectors = useConnectors();
  const labels = useMemo(() => sourceLabels(sources.data ?? [], connectors.data), [sources.data, connectors.data]);
  const failure = sources.error ?? connectors.error;

  return (
    <>
      <PageHeader
        title="Company Sources"
        description="The marketing accounts your dashboards read from, shared by the whole team."
      />
      {failure ? (
        <Alert color="red" icon={<IconAlert />} mb="xl">
          {errorMessage(failure)}
        </Alert>
      ) : null}
      {sources.isPending || connectors.isPending ? (
        <PageLoader />
      ) : (
        <Stack gap={40}>
          {sources.data ? (
            <Stack gap="sm">
              <div>
                <Title order={2} size="h4">
                  Connected sources
                </Title>
                <Text size="sm" c="dimmed">
                  Every widget picks one of these. Removing a source affects the widgets that use it.
                </Text>
              </div>
              <ConnectedSources sources={sources.data} connectors={connectors.data} labels={labels} />
            </Stack>
          ) : null}
          {connectors.data ? (
            <ConnectorCatalogue connectors={connectors.data} sources={sources.data ?? []} labels={labels} />
          ) : null}
        </Stack>
      )}
    </>
  );
}
