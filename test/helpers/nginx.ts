import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../runtime/backends/served/llama-server-process.js";

/**
 * A real HTTP load balancer: Debian's nginx, run as a plain process on a
 * loopback port with a configuration of the test's own. `.ci/run` installs
 * it; elsewhere the tests that need it skip, saying why.
 */
export const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
export const hasNginx = existsSync(NGINX);

if (!hasNginx) {
  if (process.env.NARROWGAUGE_REQUIRE_NGINX) throw new Error(`no nginx at ${NGINX}, and NARROWGAUGE_REQUIRE_NGINX is set`);
  console.warn(`[narrowgauge tests] skipping load-balancer tests: no nginx at ${NGINX} (apt-get install nginx, or set NGINX_PATH).`);
}

/**
 * nginx in front of `upstreams` (http://host:port each): requests with the
 * same `X-Session-Id` header go to the same replica (a consistent hash); a
 * replica that refuses or drops a connection is passed over, and the
 * request (a POST too) is sent to the next one.
 */
export async function startNginx(upstreams: readonly string[]): Promise<{ url: string; stop(): Promise<void> }> {
  const folder = await mkdtemp(join(tmpdir(), "narrowgauge-nginx-"));
  const port = await freePort();
  const servers = upstreams.map((url) => `    server ${new URL(url).host} max_fails=1 fail_timeout=60s;`).join("\n");
  const config = `worker_processes 1;
daemon off;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${folder}/body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
  upstream replicas {
    hash $http_x_session_id consistent;
${servers}
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 8m;
    location / {
      proxy_pass http://replicas;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
      proxy_connect_timeout 2s;
      proxy_read_timeout 120s;
      proxy_next_upstream error timeout http_502 non_idempotent;
      proxy_next_upstream_tries 2;
    }
  }
}
`;
  await writeFile(join(folder, "nginx.conf"), config);
  const child = spawn(NGINX, ["-p", folder, "-c", join(folder, "nginx.conf")], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (piece: Buffer) => (stderr += piece.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  // Up when it answers (its 502 for a path no replica serves counts); bounded.
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    const answered = await fetch(`${url}/health`).then(() => true, () => false);
    if (answered) break;
    if (attempt >= 100) throw new Error(`nginx did not answer within 10 s: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    async stop() {
      child.kill("SIGQUIT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
      await rm(folder, { recursive: true, force: true });
    },
  };
}
