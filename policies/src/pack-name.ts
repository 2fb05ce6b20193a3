/** The name the Pulumi CLI shows for our pack (`pulumi up --policy-pack`, GetAnalyzerInfo). */
export const PACK_NAME = "cloudcost-budgets";
