import { buildDemo } from "./build-demo.js";
import { serveStatic } from "./serve-static.js";

/** `npm run browser:demo`: builds the demo page and serves it on a free loopback port until interrupted; the URL is the last line printed. */
const out = await buildDemo();
const server = await serveStatic(out);
process.stderr.write(`narrowgauge browser demo: built into ${out}; open the URL below (Ctrl-C stops the server).\n`);
process.stdout.write(`${server.url}\n`);
process.on("SIGINT", () => void server.close().then(() => process.exit(0)));
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
