// Loaded on demand by LazyTooltip: this module is the only static importer of Mantine's Tooltip there.
export { Tooltip } from "@mantine/core";
