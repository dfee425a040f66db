import { execFileSync } from "node:child_process";

/**
 * A Python with PyTorch, for the distillation trainer's tests: `python3` on
 * the PATH, else Debian's /usr/bin/python3 (where apt-get install
 * python3-torch puts it). Tests that need it skip, saying why, where there is
 * none; CI installs it and sets NARROWGAUGE_REQUIRE_TORCH.
 */
function findPython(): string | null {
  for (const python of [process.env.NARROWGAUGE_PYTHON, "python3", "/usr/bin/python3"]) {
    if (!python) continue;
    try {
      execFileSync(python, ["-c", "import torch, numpy"], { stdio: "ignore", timeout: 60_000 });
      return python;
    } catch {
      // not this one
    }
  }
  return null;
}

export const PYTHON_WITH_TORCH = findPython();

if (!PYTHON_WITH_TORCH) {
  if (process.env.NARROWGAUGE_REQUIRE_TORCH) throw new Error("no Python with torch and numpy, and NARROWGAUGE_REQUIRE_TORCH is set");
  console.warn("[narrowgauge tests] skipping trainer tests: no Python with PyTorch (apt-get install python3-torch, or pip install -r train/trainer/requirements.txt).");
}
