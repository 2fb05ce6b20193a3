/** What the alert step needs from whichever engine deploys examples/alert-fires (the real CLI, or the harness). */
export interface DeployedAlert {
  alertId: string;
  budgetAmount: number;
  spendThisMonth: number;
  /** The stack's secret output `webhookSigningSecret`: handed to the receiver, never printed. */
  webhookSigningSecret: string;
}

export interface AlertDeployment {
  /** Appended to the step's title: "(harness)" when the engine is the test harness, "" for the real CLI. */
  label: string;
  /** Deploys the stack with its webhook pointed at RECEIVER_URL and returns its outputs. */
  up(receiverUrl: string): Promise<DeployedAlert>;
  /** Destroys whatever `up` created (also after a failed `up`). */
  destroy(): Promise<void>;
}

export const ALERT_FIRES_PROJECT = "cloudcost-alert-fires";
