import { Problem } from "@cloudcost/api";
import type { WireResponse } from "./http";

/** A stack frame as Node prints it: its presence in a response means internals leaked to the user. */
const STACK_FRAME = /\bat [\w.<>]+ \(|node:internal|\/src\/[\w/-]+\.ts:\d+/;

/** Asserts an RFC 9457 problem response with `status`, valid against the contract's `Problem` schema. */
export function expectProblem(res: WireResponse, status: number): Problem {
  expectStatus(res, status);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const problem = Problem.parse(res.json);
  expect(problem.status).toBe(status);
  expect(res.text).not.toMatch(STACK_FRAME);
  return problem;
}

/** Asserts the status; the failure message shows the body, which is what one needs to see. */
export function expectStatus(res: WireResponse, status: number): void {
  expect(`${res.status} ${res.text.slice(0, 400)}`).toMatch(new RegExp(`^${status} `));
}
