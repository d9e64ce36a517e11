import { connectorNameInText, type TConnector, type TSource } from "@app/core";
import { Button, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type ChangeEvent, type FormEvent, useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { IconPlus } from "../../../ui/icons";
import type { TypedCredentials } from "../api";
import { withScheme } from "../auth-kinds";
import { useSaveCredentials } from "../hooks";

/** The fields each typed login asks for (docs/product.md §3: account + token, token, site + key|secret). */
const FIELDS: Record<string, ReadonlyArray<keyof TypedCredentials>> = {
  "account+token": ["account", "token"],
  token: ["token"],
  "site+key|secret": ["site", "token"],
};

function labelOf(field: keyof TypedCredentials, connector: TConnector): string {
  if (field === "account") return "Account";
  if (field === "site") return "Site URL";
  if (connector.tokenLogin) return connector.tokenLogin;
  return connector.authKind === "site+key|secret" ? "Consumer key|secret" : "API token";
}

function hintOf(field: keyof TypedCredentials, connector: TConnector, name: string): string {
  const authKind = connector.authKind;
  if (field === "account") return `The ${name} account this token belongs to; it names the source in your list.`;
  // Meta's System User token (docs/product.md, "Expiring logins"): made for this server's app, it does not expire.
  if (connector.tokenLogin) {
    return `From your ${name} business settings (System users → Generate token, for this app). Unlike a sign-in, it does not expire. Stored encrypted.`;
  }
  if (field === "site") return "The shop's address; it must use https://.";
  return authKind === "site+key|secret"
    ? "From WooCommerce → Settings → Advanced → REST API, written consumer key|consumer secret."
    : `From your ${name} account settings. It is stored encrypted and never shown again.`;
}

/**
 * Connects a source by a typed login. The server asks the provider before anything is stored, so a
 * wrong token is named under its field in the provider's own words and the form keeps what was typed.
 * With `source`, the same form re-authorises that source with new credentials.
 */
export function CredentialsConnectAction({
  connector,
  source = null,
  onDone,
}: {
  connector: TConnector;
  source?: TSource | null;
  onDone?: (saved: TSource) => void;
}) {
  // An OAuth connector that also takes a pasted token (`tokenLogin`) asks for the token alone.
  const fields = connector.tokenLogin ? (["token"] as const) : (FIELDS[connector.authKind] ?? []);
  // "[beta]" is a label of the catalogue card, not part of the name in a sentence.
  const name = connectorNameInText(connector.displayName);
  const [values, setValues] = useState<TypedCredentials>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveCredentials();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    const credentials: TypedCredentials = { ...values };
    if (credentials.site !== undefined) credentials.site = withScheme(credentials.site);
    save.mutate(
      { name: connector.key, source, credentials },
      {
        onSuccess: (saved) => {
          setValues({});
          notifications.show({
            color: "teal",
            title: source ? "Source re-authorised" : `${name} connected`,
            message: `${saved.account ?? name} is ready to use in widgets.`,
          });
          onDone?.(saved);
        },
        onError: (failure) => {
          const fieldMessages = fieldErrors(failure);
          setErrors(fieldMessages ?? { general: errorMessage(failure) });
        },
      },
    );
  };

  const prefix = `${connector.key}-${source?.id ?? "new"}`;
  return (
    <form onSubmit={submit} noValidate aria-label={`Connect ${name}`}>
      <Stack gap="sm">
        {fields.map((field) => {
          const common = {
            id: `${prefix}-${field}`,
            label: labelOf(field, connector),
            description: hintOf(field, connector, name),
            size: "sm" as const,
            required: true,
            value: values[field] ?? "",
            error: errors[field],
            disabled: save.isPending,
            autoComplete: "off",
            onChange: (event: ChangeEvent<HTMLInputElement>) => {
              const value = event.currentTarget.value;
              setValues((current) => ({ ...current, [field]: value }));
            },
          };
          return field === "token" ? <PasswordInput key={field} {...common} /> : <TextInput key={field} {...common} />;
        })}
        {errors.general || errors.name ? (
          <Text size="sm" c="red.7" role="alert">
            {errors.general ?? errors.name}
          </Text>
        ) : null}
        <Button type="submit" leftSection={<IconPlus size={16} />} loading={save.isPending} fullWidth>
          {source ? `Re-authorise ${name}` : `Connect ${name}`}
        </Button>
      </Stack>
    </form>
  );
}
