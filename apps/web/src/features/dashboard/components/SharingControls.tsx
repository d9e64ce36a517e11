import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Menu,
  Modal,
  NumberInput,
  PasswordInput,
  Stack,
  Text,
} from "@mantine/core";
import { lazy, Suspense, useState } from "react";
import { useNavigate } from "react-router";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { IconChevronDown, IconCopy, IconLock, IconMail, IconShare } from "../../../ui/icons";
import { createEmbedLink, refreshDashboardPermalink, revokeEmbedLinks, setDashboardPassword } from "../api";
import { embedSnippet } from "../embed-snippet";

// The report form and its rules load when the owner opens Mail reporting.
const MailReportingModal = lazy(async () => ({
  default: (await import("../../automatic-reports/lazy")).MailReportingModal,
}));

type Dialog = "password" | "permalink" | "embed" | "mail" | null;

/**
 * The owner's sharing controls (docs/product.md §2, the "Sharing" menu): Mail reporting (the automatic report
 * form), the dashboard's password, a new permalink (old links stop working) and signed embed links with
 * their iframe snippet. Members only.
 */
export function SharingControls({
  dashboardId,
  name,
  passwordProtected,
  widgetCount,
}: {
  dashboardId: string;
  name: string;
  passwordProtected: boolean;
  widgetCount: number;
}) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const [isProtected, setProtected] = useState(passwordProtected);
  const close = () => setDialog(null);
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button
            variant="default"
            className="dash-sharing"
            aria-label="Sharing"
            leftSection={<IconShare size={16} />}
            rightSection={<IconChevronDown size={14} />}
          >
            Sharing
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconMail size={14} />} onClick={() => setDialog("mail")}>
            Mail reporting
          </Menu.Item>
          <Menu.Item leftSection={<IconLock size={14} />} onClick={() => setDialog("password")}>
            {isProtected ? "Change or remove password" : "Set password"}
          </Menu.Item>
          <Menu.Item onClick={() => setDialog("permalink")}>Refresh permalink</Menu.Item>
          <Menu.Item onClick={() => setDialog("embed")}>Embed</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {dialog === "mail" ? (
        <Suspense fallback={null}>
          <MailReportingModal opened onClose={close} dashboard={{ id: dashboardId, name, widgetCount }} />
        </Suspense>
      ) : null}
      <Modal opened={dialog === "password"} onClose={close} title="Dashboard password">
        <PasswordForm
          id={dashboardId}
          isProtected={isProtected}
          onDone={(value) => {
            setProtected(value);
            close();
          }}
        />
      </Modal>
      <Modal opened={dialog === "permalink"} onClose={close} title="Refresh permalink">
        <PermalinkForm id={dashboardId} onCancel={close} />
      </Modal>
      <Modal opened={dialog === "embed"} onClose={close} title="Embed this dashboard" size="lg">
        <EmbedForm id={dashboardId} name={name} />
      </Modal>
    </>
  );
}

function PasswordForm({ id, isProtected, onDone }: { id: string; isProtected: boolean; onDone: (p: boolean) => void }) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (value: string) => {
    setPending(true);
    setError(null);
    try {
      onDone(await setDashboardPassword(id, value));
    } catch (failure) {
      setError(fieldErrors(failure)?.password ?? errorMessage(failure));
    } finally {
      setPending(false);
    }
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit(password);
      }}
    >
      <Stack>
        <Text fz="sm" c="dimmed">
          {isProtected
            ? "This dashboard asks visitors of its link for a password. Set a new one, or remove it."
            : "Visitors of the dashboard's link will be asked for this password. Embed links do not ask for it."}
        </Text>
        <PasswordInput
          label={isProtected ? "New password" : "Password"}
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          error={error}
          autoComplete="new-password"
          data-autofocus
        />
        <Group justify="space-between">
          {isProtected ? (
            <Button variant="subtle" color="red" disabled={pending} onClick={() => void submit("")}>
              Remove password
            </Button>
          ) : (
            <span />
          )}
          <Button type="submit" loading={pending} disabled={password === ""}>
            Save password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function PermalinkForm({ id, onCancel }: { id: string; onCancel: () => void }) {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <Stack>
      <Text fz="sm">
        The dashboard gets a new address. Every link shared so far, embed links included, stops working.
      </Text>
      {error ? <Alert color="red">{error}</Alert> : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button
          color="red"
          loading={pending}
          onClick={async () => {
            setPending(true);
            try {
              const permalink = await refreshDashboardPermalink(id);
              navigate(`/dashboards/${encodeURIComponent(permalink)}`, { replace: true });
            } catch (failure) {
              setError(errorMessage(failure));
              setPending(false);
            }
          }}
        >
          Refresh permalink
        </Button>
      </Group>
    </Stack>
  );
}

function EmbedForm({ id, name }: { id: string; name: string }) {
  const [days, setDays] = useState<number | string>(30);
  const [link, setLink] = useState<{ url: string; expiresAt: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setPending(true);
    setError(null);
    setNotice(null);
    try {
      await action();
    } catch (failure) {
      setError(fieldErrors(failure)?.days ?? errorMessage(failure));
    } finally {
      setPending(false);
    }
  };
  const snippet = link ? embedSnippet(link.url, name) : null;
  return (
    <Stack>
      <Text fz="sm" c="dimmed">
        Show this dashboard read-only inside another site. The link is signed and stops working when it expires, when
        you revoke embed links or when you refresh the permalink.
      </Text>
      <Group align="flex-end">
        <NumberInput label="Lifetime (days)" min={1} max={365} value={days} onChange={setDays} error={error} w={160} />
        <Button
          loading={pending}
          onClick={() => void run(async () => setLink(await createEmbedLink(id, Number(days))))}
        >
          Create embed link
        </Button>
      </Group>
      {snippet && link ? (
        <Stack gap="xs">
          <Code block data-testid="embed-snippet" style={{ whiteSpace: "pre-wrap", wordBreak: "break-all" }}>
            {snippet}
          </Code>
          <Group justify="space-between">
            <Text fz="sm" c="dimmed">
              Expires {new Date(link.expiresAt).toLocaleString()}
            </Text>
            <CopyButton value={snippet}>
              {({ copied, copy }) => (
                <Button variant="light" leftSection={<IconCopy size={14} />} onClick={copy}>
                  {copied ? "Copied" : "Copy snippet"}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Stack>
      ) : null}
      {notice ? <Alert color="green">{notice}</Alert> : null}
      <Group justify="flex-start">
        <Button
          variant="subtle"
          color="red"
          disabled={pending}
          onClick={() =>
            void run(async () => {
              await revokeEmbedLinks(id);
              setLink(null);
              setNotice("Every embed link made so far has been revoked.");
            })
          }
        >
          Revoke all embed links
        </Button>
      </Group>
    </Stack>
  );
}
