import type { TConnector, TSource } from "@app/core";
import { Anchor, Badge, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { IconCheck } from "../../../ui/icons";
import { ConnectorCard } from "./ConnectorCard";
import { CredentialsConnectButton } from "./CredentialsConnectButton";
import { CsvUploadAction } from "./CsvUploadAction";
import { DemoConnectAction } from "./DemoConnectAction";
import { OAuthConnectAction } from "./OAuthConnectAction";

interface CatalogueProps {
  connectors: TConnector[];
  sources: TSource[];
  labels: Map<string, string>;
}

/** What a person can do with an available connector on this screen, by how it signs in. */
function connectAction(connector: TConnector, existing: TSource[], labels: Map<string, string>): ReactNode {
  if (connector.authKind === "none") {
    return existing.length > 0 ? <ConnectedHint /> : <DemoConnectAction connectorKey={connector.key} />;
  }
  if (connector.authKind === "upload") {
    return <CsvUploadAction connectorKey={connector.key} existing={existing} labels={labels} />;
  }
  if (connector.authKind === "oauth2") return <OAuthConnectAction connector={connector} existing={existing} />;
  return <CredentialsConnectButton connector={connector} />;
}

/** Shown on a connected no-login source: where to use it next. */
function ConnectedHint() {
  return (
    <Text size="sm" c="dimmed">
      Pick it as the source of any widget, or{" "}
      <Anchor component={Link} to="/dashboards/create" size="sm" fw={600}>
        start a dashboard from a template
      </Anchor>
      .
    </Text>
  );
}

function Section({
  title,
  description,
  uneven,
  children,
}: {
  title: string;
  description: string;
  /** Cards of different heights (the CSV card carries its file field): each keeps its own height. */
  uneven?: boolean;
  children: ReactNode;
}) {
  return (
    <Stack gap="sm">
      <div>
        <Title order={2} size="h4">
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      </div>
      <SimpleGrid
        cols={{ base: 1, sm: 2, lg: 3 }}
        spacing="md"
        // Cards with a form are much taller than the others; stretching those would leave holes.
        style={uneven ? { alignItems: "start" } : undefined}
      >
        {children}
      </SimpleGrid>
    </Stack>
  );
}

/** The whole connector catalogue in display order: those that can be connected now first, then those this server lacks credentials for. */
export function ConnectorCatalogue({ connectors, sources, labels }: CatalogueProps) {
  const available = connectors.filter((connector) => connector.available);
  const later = connectors.filter((connector) => !connector.available);

  const card = (connector: TConnector) => {
    const existing = sources.filter((source) => source.name === connector.key);
    const connected =
      existing.length > 0 ? (
        <Badge color="teal" variant="light" size="sm" tt="none" leftSection={<IconCheck size={12} />}>
          Connected
        </Badge>
      ) : null;
    return (
      <ConnectorCard key={connector.key} connector={connector} status={connected}>
        {connector.available ? connectAction(connector, existing, labels) : null}
      </ConnectorCard>
    );
  };

  return (
    <Stack gap="xl">
      {available.length > 0 ? (
        <Section uneven title="Connect now" description="Start reporting straight away with these sources.">
          {available.map(card)}
        </Section>
      ) : null}
      {later.length > 0 ? (
        <Section
          title="Not set up on this server"
          description="These need their provider's app credentials, which the server's operator sets; each card names them."
        >
          {later.map(card)}
        </Section>
      ) : null}
    </Stack>
  );
}
