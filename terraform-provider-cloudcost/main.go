// Command terraform-provider-cloudcost is the Terraform and OpenTofu provider of the Cloud Cost API
// (provider protocol 6, on terraform-plugin-framework). Terraform or OpenTofu starts it; run by hand it
// only says so, unless -debug asks it to serve for a debugger (TF_REATTACH_PROVIDERS).
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/provider"
)

// version is stamped by the build (-ldflags "-X main.version=…"); "dev" for a plain `go build`.
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "serve for a debugger: prints TF_REATTACH_PROVIDERS to set")
	flag.Parse()
	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: provider.Address,
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err)
	}
}
