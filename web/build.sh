#!/bin/sh
# Builds the web client into web/dist when it is missing or older than its sources: the
# app, the API specs it is generated from and the rule texts it bundles. `npm ci` first
# when node_modules is missing or older than the lockfile. Used by `make run` and the tests.
set -e
cd "$(dirname "$0")"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "web: npm ci (installing the build tools from package-lock.json)"
  npm ci --no-audit --no-fund
fi
if [ ! -f dist/index.html ] || [ -n "$(find src index.html vite.config.ts package.json ../openapi ../docs/games ../shared/games/rules -newer dist/index.html -not -name '*.d.ts' | head -1)" ]; then
  echo "web: building the app into web/dist"
  npm run build --silent
fi
