/**
 * Import-graph rules for `npm run check:imports` (part of `npm test`).
 *
 * dependency-cruiser reads the imports of web/, worker/, durable-objects/,
 * ai/, schema/, scripts/ and e2e/ and fails on any rule below. The arrows
 * run one way: web → schema; worker → durable-objects → ai → schema
 * (DESIGN.md "Folders", docs/decisions/0012-room-modules-and-ai.md). Type-only imports
 * (`import type`, `import { type X }`) count as edges: tsPreCompilationDeps.
 *
 * CommonJS (.cjs) because package.json says "type": "module".
 */

/** Paths of our own code (anything else is npm, node: or cloudflare:). */
const OURS = [
  "^(web|worker|durable-objects|ai|schema|scripts|e2e|migrations)/",
  "^[^/]+\\.(ts|tsx|js|mjs|cjs|json)$",
];

/** Tests and test helpers. */
const TEST_CODE = ["\\.test\\.tsx?$", "^worker/test/", "^e2e/"];

/** `import type` and `import("…").T`: erased by the compiler, no runtime edge. */
const TYPE_ONLY = ["type-only", "type-import"];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "Modules must not import each other in a circle, not even with `import type`: " +
        "a cycle means the two files are one module in disguise and cannot be understood, " +
        "tested or moved apart. Move the shared part (often a type) into a file both import.",
      from: {},
      to: { circular: true },
    },
    {
      name: "schema-imports-only-schema",
      severity: "error",
      comment:
        "schema/ holds the types and validation shared by the web app, the Worker and the " +
        "Durable Object. It sits at the bottom: it may use npm packages and other schema/ files, " +
        "nothing else of ours, so every side can import it without pulling in the others.",
      from: { path: "^schema/" },
      to: { path: OURS, pathNot: "^schema/" },
    },
    {
      name: "web-no-worker-values",
      severity: "error",
      comment:
        "The web app runs in the browser; Worker code must not end up in its bundle. " +
        "Only `import type` from worker/ is allowed (the Hono RPC AppType).",
      from: { path: "^web/" },
      to: { path: "^worker/", dependencyTypesNot: TYPE_ONLY },
    },
    {
      name: "web-imports-only-web-and-schema",
      severity: "error",
      comment:
        "The web app may import web/ and schema/ of ours (plus types from worker/, see " +
        "web-no-worker-values). The Durable Object, scripts and tests are not part of the browser app.",
      from: { path: "^web/" },
      to: { path: OURS, pathNot: "^(web|schema|worker)/" },
    },
    {
      name: "durable-objects-not-to-worker",
      severity: "error",
      comment:
        "The Durable Objects (durable-objects/) sit below the Worker: they may import schema/, ai/ " +
        "and their own folder, never worker/ — the room's own D1 statements live in " +
        "durable-objects/room/d1-sync.ts, which the Worker may import. Tests are exempt: they " +
        "drive the room through the Worker and use its test helpers (worker/test/).",
      from: { path: "^durable-objects/", pathNot: "\\.test\\.tsx?$" },
      to: { path: OURS, pathNot: ["^durable-objects/", "^ai/", "^schema/"] },
    },
    {
      name: "ai-imports-only-ai-and-schema",
      severity: "error",
      comment:
        "ai/ holds the models Fabled calls (chat models, moderation), each behind one interface. " +
        "It may import ai/, schema/ and npm packages only, so the Worker and the Durable Objects " +
        "can both use it without pulling in each other.",
      from: { path: "^ai/" },
      to: { path: OURS, pathNot: ["^ai/", "^schema/"] },
    },
    {
      name: "no-route-to-route",
      severity: "error",
      comment:
        "Each file in worker/routes/ is one API area mounted by worker/app.ts. A route file must " +
        "not import another route file; move what they share into worker/lib/.",
      from: { path: "^worker/routes/[^/]+\\.tsx?$" },
      to: { path: "^worker/routes/[^/]+\\.tsx?$" },
    },
    {
      name: "conversation-room-only-via-index",
      severity: "error",
      comment:
        "The Worker talks to the conversation room through its Durable Object stub, not by " +
        "importing its code. Only worker/index.ts imports durable-objects/conversation-room.ts " +
        "(to export the class for the binding); elsewhere only `import type` " +
        "(e.g. DurableObjectStub<ConversationRoom>). Shared values belong in a smaller module.",
      from: { path: "^worker/", pathNot: "^worker/index\\.ts$" },
      to: { path: "^durable-objects/conversation-room\\.ts$", dependencyTypesNot: TYPE_ONLY },
    },
    {
      name: "production-not-to-test-code",
      severity: "error",
      comment:
        "Production code must not import tests or test helpers (*.test.ts, worker/test/, e2e/): " +
        "they would be bundled and deployed, and tests could no longer change freely.",
      from: {
        path: "^(web|worker|durable-objects|ai|schema)/",
        pathNot: TEST_CODE,
      },
      to: { path: TEST_CODE },
    },
  ],
  options: {
    // Scope is given on the command line (package.json "check:imports").
    doNotFollow: { path: "(^|/)node_modules/" },
    exclude: { path: ["(^|/)node_modules/", "^worker/worker-configuration\\.d\\.ts$"] },
    // Count `import type` edges too: "no cycle" includes type-only cycles.
    tsPreCompilationDeps: true,
    // No tsConfig: imports are relative with explicit .ts/.tsx extensions and
    // there are no path aliases, so plain resolution finds every file.
    enhancedResolveOptions: {
      extensions: [".ts", ".tsx", ".d.ts", ".js", ".mjs", ".cjs", ".json"],
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
  },
};
