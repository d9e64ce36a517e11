import type { TConnector, TSource } from "@app/core";
import { Button } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { IconPlus } from "../../../ui/icons";
import { useOAuthConnect } from "../hooks";

/**
 * Connects a provider account through its consent screen in a popup; the new source appears in the
 * list with the account it belongs to. Failures are told in words (refused consent, a blocked popup).
 */
export function OAuthConnectAction({ connector, existing }: { connector: TConnector; existing: TSource[] }) {
  const connect = useOAuthConnect();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const result = await connect(connector.key, null);
      if (result.ok) {
        notifications.show({
          color: "teal",
          title: `${connector.displayName} connected`,
          message: "Pick it as the source of a widget.",
        });
      } else {
        notifications.show({ color: "red", title: "Not connected", message: result.message ?? "Please try again." });
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button leftSection={<IconPlus size={16} />} loading={busy} fullWidth onClick={() => void run()}>
      {existing.length > 0 ? `Connect another ${connector.displayName} account` : `Connect ${connector.displayName}`}
    </Button>
  );
}
