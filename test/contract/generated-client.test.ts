import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { DOCUMENT_PATH } from "./support/contract";
import { tour } from "./generated/client-program";

const GENERATED = join(__dirname, "generated", "openapi.d.ts");
const PROGRAM = join(__dirname, "generated", "client-program.ts");
const OPENAPI_TS = join(dirname(require.resolve("openapi-typescript/package.json")), "bin", "cli.js");

describe("a client generated from api/openapi.json (openapi-typescript + openapi-fetch)", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox.dispose());

  it("is what openapi-typescript makes of the document today (run `npm run openapi`)", () => {
    const fresh = execFileSync(process.execPath, [OPENAPI_TS, DOCUMENT_PATH, "--default-non-nullable", "false"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    expect(readFileSync(GENERATED, "utf8")).toBe(fresh);
  });

  it("compiles a program under strict TypeScript, which refuses the schedules the document forbids", () => {
    const program = ts.createProgram([PROGRAM], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      types: [],
      skipLibCheck: true,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(diagnostics).toEqual([]);
  });

  it("runs against the sandbox: typed successes, typed problems", async () => {
    const seen = await tour(sandbox.baseUrl, await sandbox.token("read,write"));
    expect(seen).toEqual({
      groupName: "Typed client",
      alertAmount: 1250.5,
      reportSchedule: { frequency: "monthly", dayOfWeek: null, dayOfMonth: 31, time: "06:00", timezone: "Europe/Berlin" },
      summaryCurrency: expect.stringMatching(/^[A-Z]{3}$/),
      missingStatus: 404,
      blankNameErrors: ["body.name"],
    });
  });
});
