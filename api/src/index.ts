export * from "./contract";
export { buildDocument, buildOpenApiDocument, type DocumentSpec, type OpenApiDocument } from "./openapi";
export * from "./client";
