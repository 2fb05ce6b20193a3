#!/usr/bin/env node
"use strict";
// The `cloudcost-policies` command (`cloudcost-policies check-plan plan.json`). A committed stub rather than
// dist/check-plan.js itself, so npm links the command at install time, before the workspace has been built.
try {
  require.resolve("../dist/check-plan.js");
} catch {
  console.error("cloudcost-policies is not built yet: run `npm run build` in the repository first.");
  process.exit(1);
}
require("../dist/check-plan.js");
