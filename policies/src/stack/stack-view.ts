import type { PolicyResource } from "@pulumi/policy";
import { BudgetAlert, CloudGroup, type BudgetAlertArgs } from "@cloudcost/pulumi";
import { AlertView, readAlert } from "../inputs/budget-alert";
import { GroupView, readGroup } from "../inputs/cloud-group";
import { isOfKind } from "../resource-types";

export interface StackGroup {
  urn: string;
  /** The Pulumi resource name, as written in the program. */
  name: string;
  group: GroupView;
}

export interface StackAlert {
  urn: string;
  name: string;
  alert: AlertView;
  /**
   * URNs of the stack's resources the alert's groupId is computed from. The engine records these
   * property dependencies in preview (when the group's id is still unknown) and in state, so an alert is
   * tied to its group without knowing the id (AnalyzeStack does not carry resource ids).
   */
  groupUrns: string[];
}

export interface StackView {
  groups: StackGroup[];
  alerts: StackAlert[];
}

const GROUP_ID: keyof BudgetAlertArgs = "groupId";

/** The stack's Cloud Groups and budget alerts, dynamic or native, matched on their type tokens. */
export function readStack(resources: readonly PolicyResource[]): StackView {
  const view: StackView = { groups: [], alerts: [] };
  for (const r of resources) {
    if (isOfKind(r.type, CloudGroup)) view.groups.push({ urn: r.urn, name: r.name, group: readGroup(r.props) });
    else if (isOfKind(r.type, BudgetAlert)) {
      const deps = Reflect.getOwnPropertyDescriptor(r.propertyDependencies, GROUP_ID)?.value as PolicyResource[] | undefined;
      view.alerts.push({ urn: r.urn, name: r.name, alert: readAlert(r.props), groupUrns: (deps ?? []).map((d) => d.urn) });
    }
  }
  return view;
}
