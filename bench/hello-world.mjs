// The baseline of the throughput bench: a bare Fastify hello-world, in its own process, on plain Node.
// With SAME_IO_FILE (a JSON file of {headers, body} captured from the product's cached widget answer) it
// also answers POST /same-io: a JSON body parsed, then those exact bytes with those headers, the floor
// for a framework doing the widget route's I/O and nothing else.
import fs from "node:fs";
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/", async () => ({ hello: "world" }));
if (process.env.SAME_IO_FILE) {
  const captured = JSON.parse(fs.readFileSync(process.env.SAME_IO_FILE, "utf8"));
  const body = Buffer.from(captured.body, "utf8");
  app.post("/same-io", async (_request, reply) => reply.headers(captured.headers).send(body));
}
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
console.log("listening");
process.on("SIGTERM", () => app.close().then(() => process.exit(0)));
