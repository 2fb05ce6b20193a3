#!/usr/bin/env node
"use strict";
/**
 * `npm run demo [-- --exit] [-- --data DIR] [-- --engine cli|harness]`: the whole story on a local
 * sandbox. The demo and the test harness it reuses are TypeScript, loaded through scripts/register-ts.js.
 */

// On Node 26, @pulumi/pulumi's closure serializer (runtime/closure/createClosure.js, computeBuiltInModules)
// require()s every built-in module once, node:ffi among them, and Node then warns that FFI is
// experimental. Nothing here uses FFI; that one warning would only alarm the reader, so it is dropped.
const emitWarning = process.emitWarning;
process.emitWarning = function emitWarningExceptFfi(warning, ...rest) {
  const message = typeof warning === "string" ? warning : warning?.message;
  if (typeof message === "string" && message.startsWith("FFI is an experimental feature")) return;
  return emitWarning.call(process, warning, ...rest);
};

require("./register-ts");
require("./demo/main.ts");
