import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildOpenApiDocument } from "../openapi";

// `npm run openapi` regenerates the committed api/openapi.json; a test fails while it is stale.
const target = join(__dirname, "..", "..", "openapi.json");
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${target}`);
