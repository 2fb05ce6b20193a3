#!/usr/bin/env node
"use strict";
// The `cloudcost-pulumi` command. A committed launcher rather than dist/cli/main.js itself: npm links a
// package's commands at install time, and in this repository `npm ci` runs before `npm run build`, so a bin
// pointing into dist/ was never linked and `npx cloudcost-pulumi` fell through to the public registry.
try {
  require.resolve("../dist/cli/main.js");
} catch {
  console.error("cloudcost-pulumi is not built yet: run `npm run build` in the repository first.");
  process.exit(1);
}
require("../dist/cli/main.js");
