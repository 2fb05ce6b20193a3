#!/usr/bin/env node
"use strict";
// The `cloudcost-sandbox` command. A committed stub rather than dist/cli.js itself, so npm links the
// command at install time, before the workspace has been built.
try {
  require.resolve("../dist/cli.js");
} catch {
  console.error("cloudcost-sandbox is not built yet: run `npm run build` in the repository first.");
  process.exit(1);
}
require("../dist/cli.js");
