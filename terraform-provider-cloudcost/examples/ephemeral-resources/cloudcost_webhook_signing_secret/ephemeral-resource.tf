# Read at each plan and apply, never stored in a plan or the state (OpenTofu 1.11+).
ephemeral "cloudcost_webhook_signing_secret" "current" {}
