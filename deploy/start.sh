#!/bin/sh
# Starts herald as `npm start` does, with node in this process's place instead of a child of npm:
# in a container node is then PID 1 and receives SIGTERM itself (herald stops gracefully on it),
# and under systemd it is the main process. The command is package.json's start script, the one
# place that holds node's flags; arguments pass through (deploy/start.sh --check).
set -eu
cd "$(dirname "$0")/.."
start=$(node -p 'require("./package.json").scripts.start')
exec /bin/sh -c "$start \"\$@\"" herald "$@"
