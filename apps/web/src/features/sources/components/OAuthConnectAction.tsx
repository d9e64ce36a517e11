import type { TConnector, TSource } from "@app/core";
import { Button, Modal, Stack, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type FormEvent, useState } from "react";
import { IconPlus } from "../../../ui/icons";
import { useOAuthConnect } from "../hooks";
import { CredentialsConnectAction } from "./CredentialsConnectAction";

/** A catalogue button whose label may take two lines ("Connect another Google My Business account"). */
const WRAPPING = { root: { height: "auto", minHeight: 36, paddingBlock: 6 }, label: { whiteSpace: "normal" } } as const;

/**
 * Connects a provider account through its consent screen in a popup; the new source appears in the
 * list with the account it belongs to. Failures are told in words (refused consent, a blocked popup).
 * Connectors that also ask for an account (`oauthAccount`, AccuRanker) ask for it in a dialog first; the
 * typed account goes with the start, and the server's 422 on it shows under the field.
 */
export function OAuthConnectAction({ connector, existing }: { connector: TConnector; existing: TSource[] }) {
  const connect = useOAuthConnect();
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const [account, setAccount] = useState("");
  const [accountError, setAccountError] = useState<string | null>(null);
  const asksAccount = Boolean(connector.oauthAccount);
  const name = connector.displayName;

  const run = async () => {
    setBusy(true);
    setAccountError(null);
    try {
      const result = await connect(connector.key, null, asksAccount ? account : null);
      if (result.ok) {
        setAccount("");
        setAsking(false);
        notifications.show({
          color: "teal",
          title: `${name} connected`,
          message: "Pick it as the source of a widget.",
        });
      } else if (asksAccount && result.fields?.account) {
        setAccountError(result.fields.account);
      } else {
        notifications.show({ color: "red", title: "Not connected", message: result.message ?? "Please try again." });
      }
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) void run();
  };

  const label = existing.length > 0 ? `Connect another ${name} account` : `Connect ${name}`;
  if (!asksAccount) {
    return (
      <Stack gap={6}>
        <Button
          leftSection={<IconPlus size={16} />}
          loading={busy}
          fullWidth
          styles={WRAPPING}
          onClick={() => void run()}
        >
          {label}
        </Button>
        {connector.tokenLogin ? <TokenLoginAction connector={connector} tokenLogin={connector.tokenLogin} /> : null}
      </Stack>
    );
  }
  return (
    <>
      <Button
        leftSection={<IconPlus size={16} />}
        fullWidth
        styles={WRAPPING}
        aria-haspopup="dialog"
        aria-expanded={asking}
        onClick={() => setAsking(true)}
      >
        {label}
      </Button>
      <Modal opened={asking} onClose={() => setAsking(false)} title={`Connect ${name}`} centered>
        <form onSubmit={submit} noValidate aria-label={`Connect ${name}`}>
          <Stack gap="sm">
            <TextInput
              label={connector.oauthAccount}
              description={`The ${name} account to report on; ${name}'s sign-in opens next.`}
              value={account}
              onChange={(event) => {
                setAccount(event.currentTarget.value);
                setAccountError(null);
              }}
              error={accountError}
              withAsterisk
              autoComplete="off"
              data-autofocus
            />
            <Text size="xs" c="dimmed">
              Allow pop-ups for this site if nothing opens.
            </Text>
            <Button type="submit" loading={busy} fullWidth>
              {`Continue to ${name}`}
            </Button>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

/**
 * The other way in for connectors with `tokenLogin` (Meta's System User token, which does not expire
 * like a sign-in does): a link-styled button opening the token form in a dialog.
 */
function TokenLoginAction({ connector, tokenLogin }: { connector: TConnector; tokenLogin: string }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="subtle" size="xs" aria-haspopup="dialog" aria-expanded={opened} onClick={() => setOpened(true)}>
        {`Use a ${tokenLogin} instead`}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={`Connect ${connector.displayName}`} centered>
        <CredentialsConnectAction connector={connector} onDone={() => setOpened(false)} />
      </Modal>
    </>
  );
}
