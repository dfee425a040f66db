import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/**
 * A real headless browser for what people look at: Debian's Chromium, driven
 * by playwright-core (which downloads no browser of its own). `.ci/run`
 * installs it; elsewhere tests that need it skip, saying why.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);

if (!hasChromium) {
  // CI installs Chromium and says so; there a missing browser is a failure, not a skip.
  if (process.env.NARROWGAUGE_REQUIRE_CHROMIUM) throw new Error(`no Chromium at ${CHROMIUM}, and NARROWGAUGE_REQUIRE_CHROMIUM is set`);
  console.warn(`[narrowgauge tests] skipping browser tests: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH).`);
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // The flags keep Chromium from reaching for the network at start (this machine's network is closed).
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
