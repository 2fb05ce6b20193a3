// Command terraform-provider-cloudcost is the Terraform and OpenTofu provider of the Cloud Cost API
// (provider protocol 6, on terraform-plugin-framework). Terraform or OpenTofu starts it; run by hand it
// only says so, unless -debug asks it to serve for a debugger (TF_REATTACH_PROVIDERS).
package main

import (
	"flag"
	"log"
	"os"
	"runtime/debug"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/provider"
)

// version is stamped by the build (-ldflags "-X main.version=…"); "dev" for a plain `go build`.
var version = "dev"

// gcPercent: OpenTofu starts the provider afresh for each phase of a command, and its heap stays small (peak
// RSS under 100 MB for 1,000 resources at this setting, once each call's context is let go:
// released_contexts.go), while the framework allocates heavily per call (terraform-plugin-framework
// copies the schema's attribute maps at every path step). Collecting at 5x the live heap instead of 2x cut
// the provider's CPU for 300 budget alerts applied and destroyed by about a fifth in a pprof profile (GC
// mark work 1.8 s → 0.7 s). GOGC, when set, still decides.
const gcPercent = 400

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	var debug bool
	flag.BoolVar(&debug, "debug", false, "serve for a debugger: prints TF_REATTACH_PROVIDERS to set")
	flag.Parse()
	if !debug {
		// Started by OpenTofu or Terraform: log only what it shows (log_level.go). Under a debugger the
		// process's own stderr is the log, so every level stays on.
		logAtHostLevel(os.Getenv, os.Setenv)
	}
	// providerserver.Serve, with the framework's server wrapped (released_contexts.go).
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	err := tf6server.Serve(provider.Address, func() tfprotov6.ProviderServer {
		return releasingContexts(providerserver.NewProtocol6(provider.New(version)())())
	}, opts...)
	if err != nil {
		log.Fatal(err)
	}
}
