/**
 * The fake Google (./google.ts) as its own process, for the browser tests and for trying the Google
 * Analytics connection by hand: `FAKE_GOOGLE_PORT=4790 npx tsx apps/server/test/fakes/serve-google.ts`,
 * then start the server with the GOOGLE_* and GA4_* variables it prints.
 */
import { startFakeGoogle } from "./google";

const fake = await startFakeGoogle(Number(process.env.FAKE_GOOGLE_PORT ?? 0));
for (const [name, value] of Object.entries(fake.env)) console.log(`${name}=${value}`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
