import type { Resource } from "@pulumi/pulumi";
import type {
  ResourceRemediation,
  ResourceValidation,
  ResourceValidationArgs,
  ReportViolation,
  TypedResourceRemediation,
  TypedResourceValidation,
} from "@pulumi/policy";
import type { Unwrap } from "@pulumi/pulumi";
import { kindOfType, nativeTypeToken, type ResourceKind } from "@cloudcost/pulumi";

/*
 * A policy judges a resource kind, whichever front door declared it: the dynamic resource
 * (`pulumi-nodejs:dynamic/cloudcost:<Kind>`, the class's static `__pulumiType`) or the native plugin's
 * (`cloudcost:index:<Kind>`, from any language's SDK, `pulumi import` or YAML). Both carry the same inputs in
 * the same form (one runtime's Check), so the same reader and check apply. @pulumi/policy's
 * `validateResourceOfType` matches one class's token only, hence these.
 */

/** A resource class of the provider: its static `__pulumiType` names the kind. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- mirrors @pulumi/policy's own constructor signature
export type ResourceClass<A> = { new (name: string, args: A, ...rest: any[]): Resource };

function kindOfClass(resourceClass: object): ResourceKind {
  const token = (resourceClass as { __pulumiType?: unknown }).__pulumiType;
  const kind = typeof token === "string" ? kindOfType(token) : undefined;
  if (!kind) throw new Error(`not a resource class of @cloudcost/pulumi: ${String(token)}`);
  return kind;
}

/** The type tokens of both families for a class: dynamic first, native second. */
export function typeTokensOf(resourceClass: object): readonly [string, string] {
  const kind = kindOfClass(resourceClass);
  return [(resourceClass as { __pulumiType: string }).__pulumiType, nativeTypeToken(kind)];
}

/** Whether TYPE is the dynamic or the native token of the class's kind. */
export function isOfKind(type: string, resourceClass: object): boolean {
  return typeTokensOf(resourceClass).includes(type);
}

function notApplicable(args: { notApplicable(reason?: string): never }, resourceClass: object): void {
  const [dynamic, native] = typeTokensOf(resourceClass);
  args.notApplicable(`Policy only applies to resources of type '${dynamic}' or '${native}'`);
}

/** `validateResourceOfType` over both type families. */
export function validateResourceOfKind<A>(
  resourceClass: ResourceClass<A>,
  validate: TypedResourceValidation<Unwrap<NonNullable<A>>>,
): ResourceValidation {
  return (args: ResourceValidationArgs, reportViolation: ReportViolation) =>
    isOfKind(args.type, resourceClass)
      ? validate(args.props as Unwrap<NonNullable<A>>, args, reportViolation)
      : notApplicable(args, resourceClass);
}

/** `remediateResourceOfType` over both type families. */
export function remediateResourceOfKind<A>(
  resourceClass: ResourceClass<A>,
  remediate: TypedResourceRemediation<Unwrap<NonNullable<A>>>,
): ResourceRemediation {
  return (args) =>
    isOfKind(args.type, resourceClass) ? remediate(args.props as Unwrap<NonNullable<A>>, args) : notApplicable(args, resourceClass);
}
