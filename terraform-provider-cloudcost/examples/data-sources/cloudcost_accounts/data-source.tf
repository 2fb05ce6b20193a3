data "cloudcost_accounts" "all" {}

# Every connected AWS account in one group.
resource "cloudcost_cloud_group" "all_aws" {
  name            = "All AWS accounts"
  aws_account_ids = [for a in data.cloudcost_accounts.all.accounts : a.account_id if a.provider == "aws"]
}
