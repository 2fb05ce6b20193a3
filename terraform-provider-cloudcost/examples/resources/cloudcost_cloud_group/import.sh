# A Cloud Group is imported by its ID (or with an import block: `import { to = cloudcost_cloud_group.platform
# id = "grp_…" }`, and `tofu plan -generate-config-out=generated.tf` writes its configuration).
tofu import cloudcost_cloud_group.platform grp_01j9z6w3k2m4n5p6q7r8
