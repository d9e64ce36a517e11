import { Button } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { errorMessage } from "../../../lib/api";
import { IconPlus } from "../../../ui/icons";
import { useConnectSource } from "../hooks";

/** Connects the Demo data source: nothing to sign in to, sample data at once. */
export function DemoConnectAction({ connectorKey }: { connectorKey: string }) {
  const connect = useConnectSource();
  return (
    <Button
      leftSection={<IconPlus size={16} />}
      loading={connect.isPending}
      fullWidth
      onClick={() =>
        connect.mutate(connectorKey, {
          onSuccess: () =>
            notifications.show({
              color: "teal",
              title: "Demo data connected",
              message: "Add its widgets to a dashboard or start from a template.",
            }),
          onError: (error) =>
            notifications.show({ color: "red", title: "Could not connect", message: errorMessage(error) }),
        })
      }
    >
      Connect Demo data
    </Button>
  );
}
