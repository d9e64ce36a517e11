export { DashboardScreen, type DashboardScreenProps } from "./components/DashboardScreen";
