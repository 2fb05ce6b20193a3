import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  {
    ignores: [
      ".cache/**",
      "**/dist/**",
      "docs/.vitepress/cache/**",
      "sdk/**",
      "**/node_modules/**",
      "coverage/**",
      ".sandbox/**",
      "**/*.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  { files: ["test/**/*.ts"], languageOptions: { globals: { ...globals.jest } } },
  // ARCHITECTURE.md: the OAuth server and the portal never import each other; what both use lives in sandbox/src/web.
  ...[
    ["sandbox/src/oauth/**/*.ts", ["../portal/*", "../../portal/*"]],
    ["sandbox/src/portal/**/*.ts", ["../oauth/*", "../../oauth/*"]],
    ["sandbox/src/web/**/*.ts", ["../portal/*", "../oauth/*"]],
  ].map(([files, group]) => ({
    files: [files],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group, message: "oauth/ and portal/ share code through sandbox/src/web only" }] }],
    },
  })),
);
