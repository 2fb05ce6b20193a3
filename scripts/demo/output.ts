/** How the demo talks to the person running it: numbered steps, indented details, one style throughout. */

const bold = (s: string): string => (process.stdout.isTTY ? `\u001b[1m${s}\u001b[22m` : s);

let stepNumber = 0;

/** A new step of the story: `== 3. Change the alert behind Pulumi's back`. */
export function step(title: string): void {
  stepNumber += 1;
  console.log(`\n${bold(`== ${stepNumber}. ${title}`)}`);
}

/** A detail line under the current step. */
export function detail(line: string): void {
  console.log(`   ${line}`);
}

/** Echoes a command before it runs, as a person would type it. */
export function command(line: string): void {
  console.log(`   $ ${line}`);
}

/** Shows text produced by a tool (Pulumi, the policy pack), indented under the current step. */
export function quote(text: string): void {
  for (const line of text.replace(/\s+$/, "").split("\n")) console.log(`   | ${line}`);
}
