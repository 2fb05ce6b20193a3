# The team list (examples/platform-teams/Pulumi.dev.yaml, the same teams). OpenTofu reads this file itself.
teams = {
  storefront = {
    owner                  = "storefront-lead@example.com"
    monthly_budget         = 4000
    aws_account_ids        = ["111122223333"]
    azure_subscription_ids = ["0b1f6471-1bf0-4dda-aec3-cb9272f09590"]
  }
  data = {
    owner                  = "data-lead@example.com"
    monthly_budget         = 6500
    aws_account_ids        = ["777788889999"]
    azure_subscription_ids = ["6f1a3c2e-8d4b-4b7a-9c51-2e0d7f3a9b14"]
    report_day             = "friday"
  }
  platform = {
    owner           = "platform-lead@example.com"
    monthly_budget  = 1500
    aws_account_ids = ["444455556666"]
  }
}
