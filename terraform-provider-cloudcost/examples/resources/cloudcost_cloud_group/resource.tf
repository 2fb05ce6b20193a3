resource "cloudcost_cloud_group" "platform" {
  name        = "Platform"
  description = "Shared infrastructure of the platform team"

  # Sets: order and duplicates never show as a diff.
  aws_account_ids        = ["111122223333", "444455556666"]
  azure_subscription_ids = ["0b1f6471-1bf0-4dda-aec3-cb9272f09590"]
}
