terraform {
  required_providers {
    cloudcost = {
      source = "cloudcost/cloudcost"
    }
  }
}

# Settings fall back to CLOUDCOST_API_URL, CLOUDCOST_API_TOKEN (or CLOUDCOST_CLIENT_ID and
# CLOUDCOST_CLIENT_SECRET) and CLOUDCOST_AUTH_URL: keep the credentials in the environment and out of files.
provider "cloudcost" {
  api_url = "http://127.0.0.1:8787/api/v1"
}
