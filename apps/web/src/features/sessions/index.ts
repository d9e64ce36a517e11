export { SignedInSessions } from "./components/SignedInSessions";
