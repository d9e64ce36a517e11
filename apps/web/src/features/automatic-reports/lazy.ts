// What other features load on demand: the Mail reporting modal (the dashboard's share menu).
export { MailReportingModal, type MailReportingModalProps } from "./components/MailReportingModal";
