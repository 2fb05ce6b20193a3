/**
 * `expect(log).toBeValidSarifLog()`: Microsoft's jest matcher (@microsoft/jest-sarif), which validates a log
 * against the OASIS SARIF 2.1.0 JSON schema it ships (sarif-2.1.0-rtm.5.json, draft-04, with its own Ajv).
 * Imported for its side effect; the declaration gives jest's `expect` the matcher's type.
 */
import "@microsoft/jest-sarif";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- jest's matchers are declared in its namespace
  namespace jest {
    interface Matchers<R> {
      toBeValidSarifLog(): R;
    }
  }
}
