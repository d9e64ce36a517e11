export { CopyUrlButton } from "./CopyUrlButton";
export { DateRangePicker, type DateRangePickerProps, type DateRangeValue } from "./DateRangePicker";
