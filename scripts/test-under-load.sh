#!/usr/bin/env bash
# The unit tier (npm test) beside a busy loop on every core: a machine as
# loaded as a newcomer's laptop running other work, or a shared CI runner.
# A test that passes here asserts no wall-clock time it cannot keep.
# Arguments go on to vitest (a file filter, --reporter=verbose, ...);
# HOG_CORES sets how many busy loops (default: one per core).
set -u
cd "$(dirname "$0")/.."

cores="${HOG_CORES:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc 2>/dev/null || echo 2)}"
hogs=()
tester=""
stop() {
  if [ -n "${tester}" ]; then kill "${tester}" 2>/dev/null; fi
  if [ "${#hogs[@]}" -gt 0 ]; then
    kill "${hogs[@]}" 2>/dev/null
    wait "${hogs[@]}" 2>/dev/null
  fi
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for ((i = 0; i < cores; i++)); do
  node -e 'for (;;) {}' &
  hogs+=("$!")
done
echo "test-under-load: ${cores} busy loops (pids ${hogs[*]}) beside npm test" >&2

# In the background and waited for, so that a signal to this script stops the hogs at once.
npm test -- "$@" &
tester=$!
wait "${tester}"
status=$?
tester=""
echo "test-under-load: npm test exited ${status}" >&2
exit "${status}"
