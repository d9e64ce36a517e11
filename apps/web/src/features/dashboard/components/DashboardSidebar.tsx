import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type TLanguage } from "@app/core";
import {
  Accordion,
  ActionIcon,
  Box,
  Divider,
  Group,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
} from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { IconChevronLeft, IconX } from "../../../ui/icons";
import { OnboardingAnchor } from "../../onboarding";
import type { SaveStatus } from "../use-dashboard-saver";
import { LOCKED_BY_OTHER_MESSAGE } from "../use-edit-lock";

const SAVE_TEXT: Record<SaveStatus, string> = {
  idle: "",
  pending: "Unsaved changes…",
  saving: "Saving…",
  saved: "All changes saved",
  failed: "Changes could not be saved",
};

interface Props {
  name: string;
  onName: (name: string) => void;
  /** Members may edit; public viewers see no edit controls. */
  canEdit: boolean;
  editMode: boolean;
  onEditMode: (on: boolean) => void;
  lockedByOther: boolean;
  lockBusy: boolean;
  hiddenDateSelector: boolean;
  onHiddenDateSelector: (hidden: boolean) => void;
  footer: string;
  onFooter: (footer: string) => void;
  language: TLanguage;
  onLanguage: (language: TLanguage) => void;
  stylesPanel: ReactNode;
  saveStatus: SaveStatus;
  /** Signed-in members get the way back to the dashboards list. */
  showBackLink: boolean;
  userSlot?: ReactNode;
  onClose: () => void;
}

/** Each language in its own name ("Deutsch"): the agency picks the one its client reads. */
const LANGUAGE_OPTIONS = LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }));

/** The left sidebar of the dashboard (docs/product.md §2): name, edit mode and, while editing, the dashboard settings. */
export function DashboardSidebar({
  name,
  onName,
  canEdit,
  editMode,
  onEditMode,
  lockedByOther,
  lockBusy,
  hiddenDateSelector,
  onHiddenDateSelector,
  footer,
  onFooter,
  language,
  onLanguage,
  stylesPanel,
  saveStatus,
  showBackLink,
  userSlot,
  onClose,
}: Props) {
  const toggle = (
    <OnboardingAnchor anchor="reporting-mode-toggle" editMode={editMode}>
      <Switch
        label="Edit mode"
        size="md"
        checked={editMode}
        disabled={!editMode && (lockedByOther || lockBusy)}
        onChange={(event) => onEditMode(event.currentTarget.checked)}
      />
    </OnboardingAnchor>
  );

  return (
    <Stack gap={0} h="100%">
      <Group justify="space-between" px="md" pt="md" pb="xs" wrap="nowrap">
        {showBackLink ? (
          <Text component={Link} to="/dashboards" fz="sm" fw={500} c="dimmed" style={{ textDecoration: "none" }}>
            <Group gap={4} wrap="nowrap">
              <IconChevronLeft size={16} />
              All dashboards
            </Group>
          </Text>
        ) : (
          <span />
        )}
        <ActionIcon variant="subtle" color="gray" onClick={onClose} aria-label="Close sidebar">
          <IconX size={16} />
        </ActionIcon>
      </Group>

      <Box px="md" pb="md">
        {editMode ? (
          <TextInput
            label="Dashboard name"
            value={name}
            maxLength={120}
            onChange={(event) => onName(event.currentTarget.value)}
            error={name.trim() === "" ? "The name field is required." : undefined}
          />
        ) : (
          <Title order={2} fz="lg" style={{ overflowWrap: "anywhere" }}>
            {name}
          </Title>
        )}
      </Box>

      {canEdit ? (
        <>
          <Divider />
          <Stack gap={6} px="md" py="md">
            {lockedByOther && !editMode ? (
              <Tooltip label={LOCKED_BY_OTHER_MESSAGE} position="bottom-start" multiline maw={240}>
                <Box w="fit-content">{toggle}</Box>
              </Tooltip>
            ) : (
              toggle
            )}
            <Text fz="xs" c="dimmed">
              {lockedByOther && !editMode
                ? LOCKED_BY_OTHER_MESSAGE
                : editMode
                  ? "Drag, resize and edit widgets. Changes save automatically."
                  : "Switch on to add, arrange and style widgets."}
            </Text>
            {editMode && saveStatus !== "idle" ? (
              <Text
                fz="xs"
                fw={500}
                c={saveStatus === "failed" ? "red" : saveStatus === "saved" ? "teal.9" : "dimmed"}
                role="status"
                aria-live="polite"
              >
                {SAVE_TEXT[saveStatus]}
              </Text>
            ) : null}
          </Stack>
        </>
      ) : null}

      {canEdit && editMode ? (
        <>
          <Divider />
          <Accordion multiple defaultValue={["styles", "report"]} variant="default" chevronPosition="right">
            <Accordion.Item value="report">
              <Accordion.Control>
                <Text fz="sm" fw={600}>
                  Report
                </Text>
              </Accordion.Control>
              <Accordion.Panel>
                <Stack gap="md">
                  <Switch
                    label="Hide date selector"
                    checked={hiddenDateSelector}
                    onChange={(event) => onHiddenDateSelector(event.currentTarget.checked)}
                  />
                  <Textarea
                    label="Footer"
                    description="Shown under the widgets; basic HTML allowed."
                    autosize
                    minRows={2}
                    maxRows={6}
                    value={footer}
                    onChange={(event) => onFooter(event.currentTarget.value)}
                  />
                  <Select
                    label="Report language"
                    description="The client's pages, PDF and e-mails are written in it."
                    data={LANGUAGE_OPTIONS}
                    value={language}
                    allowDeselect={false}
                    onChange={(value) => {
                      if (isLanguage(value)) onLanguage(value);
                    }}
                  />
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
            <Accordion.Item value="styles">
              <Accordion.Control>
                <Text fz="sm" fw={600}>
                  Styles
                </Text>
              </Accordion.Control>
              <Accordion.Panel>{stylesPanel}</Accordion.Panel>
            </Accordion.Item>
          </Accordion>
        </>
      ) : null}

      {userSlot ? (
        <Box mt="auto" px="md" py="sm" style={{ borderTop: "1px solid var(--mantine-color-gray-2)" }}>
          {userSlot}
        </Box>
      ) : null}
    </Stack>
  );
}
