import { MockMonitor } from "@pulumi/pulumi/runtime/mocks";

/** What a program asked the engine for when it registered a resource (the part the mocks hide). */
export interface Registration {
  type: string;
  name: string;
  additionalSecretOutputs: string[];
  /** The serialized inputs as sent to the engine; secret values are still wrapped in the secret signature. */
  object: Record<string, unknown>;
}

interface RegisterResourceRequest {
  getType(): string;
  getName(): string;
  getAdditionalsecretoutputsList(): string[];
  getObject(): { toJavaScript(): Record<string, unknown> } | undefined;
}

/**
 * Records every RegisterResource request the SDK sends to the mock monitor, so a test can see the
 * options the engine would apply (`additionalSecretOutputs`) and whether inputs were sent as secrets.
 * Returns the recording and a function that removes the spy.
 */
export function recordRegistrations(): { registrations: Registration[]; restore: () => void } {
  const registrations: Registration[] = [];
  const original = MockMonitor.prototype.registerResource;
  MockMonitor.prototype.registerResource = function (this: MockMonitor, req: RegisterResourceRequest, callback: (err: unknown, response: unknown) => void) {
    registrations.push({
      type: req.getType(),
      name: req.getName(),
      additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
      object: req.getObject()?.toJavaScript() ?? {},
    });
    return original.call(this, req, callback);
  };
  return { registrations, restore: () => (MockMonitor.prototype.registerResource = original) };
}
