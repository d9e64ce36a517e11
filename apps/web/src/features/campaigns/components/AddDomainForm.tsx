import { MAX_DOMAIN_INPUT } from "@app/core";
import { Button, Group, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { IconPlus } from "../../../ui/icons";
import { OnboardingAnchor } from "../../onboarding";
import { useAddCampaignDomain } from "../hooks";

/** One text field for a domain or URL; the server's message (invalid, duplicate…) shows under it. */
export function AddDomainForm({ campaignId }: { campaignId: string }) {
  const add = useAddCampaignDomain(campaignId);
  const [domain, setDomain] = useState("");
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    add.mutate(domain, {
      onSuccess: () => setDomain(""),
      onError: (failure) => {
        const fields = fieldErrors(failure);
        setError(fields?.domain ?? fields?.general ?? errorMessage(failure));
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-start" gap="sm" wrap="nowrap">
        <TextInput
          label="Domain"
          placeholder="example.com"
          description="A domain or any address on it; www. and the path are dropped."
          // Help and error under the field, so the button lines up with the input whatever shows.
          inputWrapperOrder={["label", "input", "description", "error"]}
          value={domain}
          onChange={(event) => {
            setDomain(event.currentTarget.value);
            setError(null);
          }}
          error={error}
          maxLength={MAX_DOMAIN_INPUT}
          autoComplete="off"
          spellCheck={false}
          style={{ flex: 1, maxWidth: 420 }}
        />
        {/* Lined up with the input, below its label. */}
        <OnboardingAnchor anchor="add-domain">
          <Button type="submit" loading={add.isPending} leftSection={<IconPlus size={16} />} mt={22}>
            Add domain
          </Button>
        </OnboardingAnchor>
      </Group>
    </form>
  );
}
