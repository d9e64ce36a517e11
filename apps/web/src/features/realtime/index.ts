export { RealtimeIndicator } from "./components/RealtimeIndicator";
export { type RealtimeStatus, useRealtimeStatus } from "./status";
export { useRealtimeSync } from "./use-realtime-sync";
