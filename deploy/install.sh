#!/bin/sh
# The production install, the one the Dockerfile runs (and a VM's update can): the locked
# dependencies without the development ones. The project's own Node 24 is a development
# dependency, so what runs herald afterwards is the machine's node, which must be 24 or newer.
set -eu
cd "$(dirname "$0")/.."
exec npm ci --omit=dev --no-audit --no-fund
