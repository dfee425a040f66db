import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { narrowgaugeCacheDir } from "../gguf/cache-dir.js";

/** What is kept between runs for one server and client: the registered client and its tokens. */
export interface StoredAuthorization {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** What a file holds, kept only where it has the shape the SDK expects (a client with a string id, tokens with a string access token); anything else is read as nothing stored. */
function stored(value: unknown): StoredAuthorization {
  if (!isRecord(value)) return {};
  const client = isRecord(value.client) && typeof value.client.client_id === "string" ? (value.client as unknown as StoredAuthorization["client"]) : undefined;
  const tokens = isRecord(value.tokens) && typeof value.tokens.access_token === "string" && (value.tokens.refresh_token === undefined || typeof value.tokens.refresh_token === "string") ? (value.tokens as unknown as StoredAuthorization["tokens"]) : undefined;
  return { ...(client ? { client } : {}), ...(tokens ? { tokens } : {}) };
}

/** Where OAuth state is kept: `<cache dir>/mcp-auth`, owner-only. */
export const defaultAuthStoreDir = (): string => join(narrowgaugeCacheDir(), "mcp-auth");

/**
 * One server's stored authorization, in a file only its owner can read
 * (0600, in a 0700 directory), named by a hash of the server's URL and
 * client id (never by the URL itself, which may name a tenant). Writes go
 * to a temporary name and are renamed into place. A file that will not
 * parse is treated as empty: the person signs in again.
 */
export class AuthorizationStore {
  private readonly file: string | null;
  private memory: StoredAuthorization = {};
  private loaded = false;

  constructor(directory: string | false, serverUrl: string, clientId: string | undefined) {
    const key = createHash("sha256").update(`${serverUrl}\n${clientId ?? ""}`).digest("hex").slice(0, 24);
    this.file = directory === false ? null : join(directory, `${key}.json`);
  }

  /** What is stored: read from the file once, then kept (every request asks for the tokens). */
  async read(): Promise<StoredAuthorization> {
    if (!this.file || this.loaded) return this.memory;
    this.loaded = true;
    try {
      this.memory = stored(JSON.parse(await readFile(this.file, "utf8")) as unknown);
    } catch {
      this.memory = {};
    }
    return this.memory;
  }

  async update(change: Partial<StoredAuthorization>): Promise<void> {
    // What the file holds already (the registered client, when tokens are saved) is kept.
    await this.read();
    this.memory = { ...this.memory, ...change };
    for (const key of Object.keys(change) as Array<keyof StoredAuthorization>) if (change[key] === undefined) delete this.memory[key];
    if (!this.file) return;
    const directory = join(this.file, "..");
    await mkdir(directory, { recursive: true, mode: 0o700 });
    await chmod(directory, 0o700);
    const temporary = `${this.file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    await writeFile(temporary, JSON.stringify(this.memory), { mode: 0o600 });
    await rename(temporary, this.file);
  }

  async clear(): Promise<void> {
    this.memory = {};
    if (this.file) await rm(this.file, { force: true });
  }
}
