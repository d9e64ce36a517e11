import { MAX_CAMPAIGN_NAME } from "@app/core";
import { Alert, Button, Card, Group, Stack, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { IconAlert } from "../../../ui/icons";
import { useCreateCampaign } from "../hooks";

/** Names a new group; on success opens it, where its domains are added. */
export function CreateGroupForm() {
  const navigate = useNavigate();
  const create = useCreateCampaign();
  const [name, setName] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    create.mutate(name, {
      onSuccess: (group) => navigate(`/groups/${encodeURIComponent(group.id)}`),
      onError: (error) => {
        const fields = fieldErrors(error) ?? {};
        setErrors(Object.keys(fields).length > 0 ? fields : { general: errorMessage(error) });
      },
    });
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
            error={errors.name ?? errors.metrics_source}
            required
            maxLength={MAX_CAMPAIGN_NAME}
            maw={520}
          />
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
