import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

// Every contract module imports `z` from here so that `.openapi()` metadata is available on every schema.
extendZodWithOpenApi(z);

export { z };
