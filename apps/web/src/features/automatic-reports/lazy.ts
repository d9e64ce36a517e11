// What other features load on demand: the Mail reporting modal (the dashboard's "Sharing" menu).
export { MailReportingModal, type MailReportingModalProps } from "./components/MailReportingModal";
