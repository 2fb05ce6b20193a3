# The secret lands in the state (marked sensitive); prefer the ephemeral resource of the same name.
data "cloudcost_webhook_signing_secret" "current" {}
