// The baseline of the throughput bench: a bare Fastify hello-world, in its own process, on plain Node.
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/", async () => ({ hello: "world" }));
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
console.log("listening");
process.on("SIGTERM", () => app.close().then(() => process.exit(0)));
