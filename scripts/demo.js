#!/usr/bin/env node
"use strict";
/**
 * `npm run demo [-- --exit] [-- --data DIR] [-- --engine cli|harness]`: the whole story on a local
 * sandbox. The demo and the test harness it reuses are TypeScript, loaded through scripts/register-ts.js.
 */
require("./register-ts");
require("./demo/main.ts");
