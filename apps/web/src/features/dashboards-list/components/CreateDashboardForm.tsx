import { ZDashboardCreate } from "@app/core";
import { Alert, Button, Card, Group, Stack, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { zodFieldErrors } from "../../../lib/form-errors";
import { IconAlert } from "../../../ui/icons";
import { useCreateDashboard, useTemplates } from "../hooks";
import { isDashboardLimitError } from "../limit";
import { DashboardLimitAlert } from "./DashboardLimitAlert";
import { BLANK, StartingPointPicker } from "./StartingPointPicker";

/**
 * Names a new dashboard and picks Blank or a template; on success opens it in edit mode.
 * `limitReached` shows the allowance warning before the server would refuse.
 */
export function CreateDashboardForm({ limitReached = false }: { limitReached?: boolean }) {
  const navigate = useNavigate();
  const templates = useTemplates();
  const create = useCreateDashboard();
  const [name, setName] = useState("");
  const [choice, setChoice] = useState(BLANK);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [limitMessage, setLimitMessage] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZDashboardCreate.safeParse({ name, template: choice === BLANK ? undefined : choice });
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setLimitMessage(null);
    create.mutate(parsed.data, {
      onSuccess: (permalink) => navigate(`/dashboards/${encodeURIComponent(permalink)}?edit=1`),
      onError: (error) => {
        const fields = fieldErrors(error) ?? {};
        if (isDashboardLimitError(error)) {
          setLimitMessage(fields.general ?? "");
          return;
        }
        setErrors(Object.keys(fields).length > 0 ? fields : { general: errorMessage(error) });
      },
    });
  };

  const showLimit = limitMessage !== null || limitReached;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xl">
        {showLimit ? <DashboardLimitAlert message={limitMessage} reveal={limitMessage !== null} /> : null}
        {errors.general ? (
          <Alert color="red" icon={<IconAlert />}>
            {errors.general}
          </Alert>
        ) : null}
        <Card>
          <Stack gap="xl">
            <TextInput
              label="Dashboard name"
              placeholder="e.g. Acme Inc. monthly report"
              description="Clients see this name at the top of the dashboard and in e-mailed reports."
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={errors.name}
              required
              maxLength={120}
              maw={520}
            />
            <StartingPointPicker
              value={choice}
              onChange={setChoice}
              templates={templates.data}
              loading={templates.isPending}
              error={
                errors.template ??
                (templates.isError ? "Templates could not be loaded; a blank dashboard still works." : undefined)
              }
            />
          </Stack>
        </Card>
        <Group justify="flex-end" gap="sm">
          <Button component={Link} to="/dashboards" variant="default">
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create dashboard
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
