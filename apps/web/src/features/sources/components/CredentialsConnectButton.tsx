import { connectorNameInText, type TConnector } from "@app/core";
import { Button, Modal } from "@mantine/core";
import { useState } from "react";
import { IconPlus } from "../../../ui/icons";
import { CredentialsConnectAction } from "./CredentialsConnectAction";

/**
 * The catalogue's way into a typed login: a button that opens the connector's form in a dialog. The
 * forms stay out of the page until asked for, so the catalogue is a list of equal cards (on a phone it
 * was a scroll through eight forms); the dialog closes once the provider accepted the login.
 */
export function CredentialsConnectButton({ connector }: { connector: TConnector }) {
  const [opened, setOpened] = useState(false);
  const name = connectorNameInText(connector.displayName);
  return (
    <>
      <Button
        leftSection={<IconPlus size={16} />}
        fullWidth
        aria-haspopup="dialog"
        aria-expanded={opened}
        onClick={() => setOpened(true)}
      >
        {`Connect ${name}`}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={`Connect ${name}`} centered>
        <CredentialsConnectAction connector={connector} onDone={() => setOpened(false)} />
      </Modal>
    </>
  );
}
