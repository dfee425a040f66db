import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { NarrowgaugeError } from "../../../base/narrowgauge-error.js";
import { narrowgaugeCacheDir } from "../../gguf/cache-dir.js";

const run = promisify(execFile);

/** llama-server could not be built (a missing tool, a failed compile or link). */
export class ServerBuildError extends NarrowgaugeError {
  readonly code = "server-build-failed";
  readonly endsRun = true;
  constructor(readonly step: string, reason: string, cause?: unknown) {
    super(`building llama-server failed at "${step}": ${reason}`, { cause });
  }
}

/** Where node-llama-cpp keeps llama.cpp's source bundle and its prebuilt CPU libraries. */
export interface LlamaSources {
  bundle: string;
  commit: string;
  prebuiltLibraries: string;
}

/** The llama.cpp source and prebuilt libraries that this node-llama-cpp install runs. */
export async function llamaSources(): Promise<LlamaSources> {
  const entry = createRequire(import.meta.url).resolve("node-llama-cpp");
  const packageDir = entry.slice(0, entry.lastIndexOf("/node-llama-cpp/") + "/node-llama-cpp".length);
  const bundle = join(packageDir, "llama", "gitRelease.bundle");
  if (!existsSync(bundle)) throw new ServerBuildError("find sources", `node-llama-cpp ships no llama.cpp source bundle at ${bundle}`);
  const platform = `${process.platform}-${process.arch}`;
  const prebuiltLibraries = [join(packageDir, "node_modules"), dirname(packageDir)]
    .map((modules) => join(modules, "@node-llama-cpp", platform, "bins", platform))
    .find((candidate) => existsSync(candidate));
  if (!prebuiltLibraries) throw new ServerBuildError("find sources", `node-llama-cpp has no prebuilt llama.cpp libraries for ${platform} installed`);
  const { stdout } = await run("git", ["bundle", "list-heads", bundle]).catch((error: Error) => {
    throw new ServerBuildError("find sources", `git cannot read the bundle (${error.message})`, error);
  });
  const commit = stdout.trim().split(/\s+/)[0] ?? "";
  if (!/^[0-9a-f]{40}$/.test(commit)) throw new ServerBuildError("find sources", `unexpected bundle heads: ${stdout.trim()}`);
  return { bundle, commit, prebuiltLibraries };
}

/** The folder a build for `commit` lives in: `<narrowgauge cache>/llama-server/<commit>`. */
export const serverBuildDir = (commit: string, cacheDir = narrowgaugeCacheDir()): string => join(cacheDir, "llama-server", commit);

// Offline: the prebuilt web UI would be downloaded, and OpenSSL is not needed on loopback.
const CMAKE_OPTIONS = [
  "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_SHARED_LIBS=ON",
  "-DLLAMA_USE_PREBUILT_UI=OFF", "-DLLAMA_BUILD_UI=OFF", "-DLLAMA_OPENSSL=OFF", "-DLLAMA_CURL=OFF",
  "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF", "-DLLAMA_BUILD_SERVER=ON", "-DLLAMA_BUILD_TOOLS=ON",
  "-DGGML_NATIVE=OFF",
];
/** The server's own targets. Everything else (ggml, llama, common) is node-llama-cpp's prebuilt libraries. */
const SERVER_TARGETS = /CMakeFiles\/(llama-server|llama-server-impl|server-context|mtmd|cpp-httplib|llama-ui|vendor-hash)\.dir\/.+\.o$/;
/** The prebuilt libraries the server links to (their names carry node-llama-cpp's llama.cpp release). */
const PREBUILT_LINK = [/^libllama-common\.so$/, /^libllama(\.v[\d.]+)?\.so$/, /^libggml(\.v[\d.]+)?\.so$/, /^libggml-base\.so$/];

export interface BuildServerOptions {
  cacheDir?: string;
  /** Progress lines (the build takes minutes the first time). */
  log?: (line: string) => void;
  jobs?: number;
}

/**
 * Builds llama-server from the llama.cpp source node-llama-cpp ships,
 * offline, compiling only the server's own objects and linking them against
 * node-llama-cpp's prebuilt libraries (copied beside the binary), so the
 * server samples under the very grammar engine the in-process path uses.
 * Cached per llama.cpp commit: a second call returns in milliseconds.
 * Returns the binary's absolute path.
 */
export async function buildLlamaServer(options: BuildServerOptions = {}): Promise<string> {
  const log = options.log ?? (() => {});
  if (process.platform !== "linux") throw new ServerBuildError("find sources", `building llama-server here is supported on Linux only; on ${process.platform}, use a llama-server from llama.cpp's releases (any build that passes connectServer's checks)`);
  const sources = await llamaSources();
  const root = serverBuildDir(sources.commit, options.cacheDir);
  const binary = join(root, "bin", "llama-server");
  if (existsSync(binary)) return binary;

  const step = async (name: string, command: string, args: string[], cwd?: string): Promise<string> => {
    log(`${name}…`);
    try {
      const { stdout } = await run(command, args, { cwd, maxBuffer: 64 * 1024 * 1024 });
      return stdout;
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      const tail = `${stdout ?? ""}${stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
      throw new ServerBuildError(name, tail || (error as Error).message, error);
    }
  };

  for (const [tool, debian] of [["git", "git"], ["cmake", "cmake"], ["ninja", "ninja-build"], ["g++", "g++"]] as const) {
    await run(tool, ["--version"]).catch((error: Error) => {
      throw new ServerBuildError("find tools", `${tool} is not installed (Debian: apt-get install ${debian})`, error);
    });
  }
  const source = join(root, "src");
  const build = join(root, "build");
  mkdirSync(root, { recursive: true });
  if (!existsSync(join(source, "CMakeLists.txt"))) {
    rmSync(source, { recursive: true, force: true });
    await step("unpack llama.cpp source", "git", ["clone", "--quiet", sources.bundle, source]);
    await step("check out the bundled commit", "git", ["-c", "advice.detachedHead=false", "checkout", "--quiet", sources.commit], source);
  }
  if (!existsSync(join(build, "build.ninja"))) await step("configure (cmake)", "cmake", ["-S", source, "-B", build, ...CMAKE_OPTIONS]);

  const targets = (await step("list the server's objects", "ninja", ["-C", build, "-t", "targets", "all"]))
    .split("\n").map((line) => line.split(":")[0]!.trim()).filter((target) => SERVER_TARGETS.test(target));
  if (targets.length === 0) throw new ServerBuildError("list the server's objects", "the configured build has no llama-server objects");
  const jobs = options.jobs ?? Math.max(1, cpus().length);
  log(`compiling ${targets.length} objects with ${jobs} jobs (about 2 minutes on 2 cores, once per llama.cpp version)`);
  await step("compile", "ninja", ["-C", build, `-j${jobs}`, ...targets]);

  const bin = join(root, "bin");
  const staging = `${bin}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const library of readdirSync(sources.prebuiltLibraries).filter((name) => name.endsWith(".so"))) {
    copyFileSync(join(sources.prebuiltLibraries, library), join(staging, library));
  }
  const objects = targets.map((target) => join(build, target));
  const libraries = readdirSync(staging);
  const link = PREBUILT_LINK.map((pattern) => libraries.find((name) => pattern.test(name)));
  if (link.some((name) => name === undefined)) throw new ServerBuildError("link against node-llama-cpp's libraries", `expected libllama-common, libllama, libggml and libggml-base in ${sources.prebuiltLibraries}, found ${libraries.join(", ")}`);
  await step("link against node-llama-cpp's libraries", "g++", [
    "-o", join(staging, "llama-server"), ...objects,
    `-L${staging}`, ...link.map((library) => `-l:${library}`),
    "-Wl,-rpath,$ORIGIN", "-lpthread", "-ldl",
  ]);
  writeFileSync(join(staging, "BUILD.txt"), `llama.cpp ${sources.commit}\nlibraries from ${sources.prebuiltLibraries}\n`);
  rmSync(bin, { recursive: true, force: true });
  renameSync(staging, bin);
  return binary;
}
