package main

import (
	"strings"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/provider"
)

// The provider's loggers log at the level its host shows, instead of TRACE.
//
// terraform-plugin-log gives every logger of a provider process TRACE unless an environment variable names a
// level (tfsdklog.NewRootSDKLogger: NoLevel becomes Trace), so that the host can filter: the process encodes
// every framework TRACE line as JSON and writes it to stderr, and OpenTofu or Terraform decodes each one and
// drops it unless TF_LOG asks for it. Profiled (issue 38): a third of the provider's CPU for 300 resources
// applied, planned and destroyed with TF_LOG unset went to lines no one saw.
//
// The host's rule for provider lines (opentofu internal/logging/logging.go, providerLogLevel and
// parseLogLevel; Terraform's is the same): TF_LOG_PROVIDER, else TF_LOG; unset is OFF, JSON is TRACE, and
// any other word it does not know is TRACE. The provider inherits the host's environment, so it can apply the
// same rule and log exactly the lines the host would keep.

// hostLogVariables are the host's variables for the level of provider lines, the first set one deciding.
var hostLogVariables = []string{"TF_LOG_PROVIDER", "TF_LOG"}

// providerLogVariables set the level of each logger in this process (terraform-plugin-go
// internal/logging/environment_variables.go, terraform-plugin-framework's likewise): the provider's own,
// tflog's (TF_LOG_PROVIDER_ and the provider type of the address, tf6server.New), the SDK root, its protocol
// subsystem and the framework subsystem.
var providerLogVariables = []string{providerLoggerVariable(provider.Address), "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"}

// providerLoggerVariable is tflog's level variable for the provider at address (terraform-plugin-go
// internal/logging/provider.go: the address's type, `-` as `_`; tflog.WithLevelFromEnv upper-cases it).
func providerLoggerVariable(address string) string {
	providerType := address[strings.LastIndex(address, "/")+1:]
	return "TF_LOG_PROVIDER_" + strings.ToUpper(strings.ReplaceAll(providerType, "-", "_"))
}

// hostLevels are the levels the host knows by name (opentofu internal/logging ValidLevels).
var hostLevels = map[string]bool{"TRACE": true, "DEBUG": true, "INFO": true, "WARN": true, "ERROR": true, "OFF": true}

// hostLogLevel is the level at which the host shows provider lines, read as the host reads it.
func hostLogLevel(getenv func(string) string) string {
	for _, name := range hostLogVariables {
		if level := strings.ToUpper(getenv(name)); level != "" {
			if level == "JSON" || !hostLevels[level] {
				return "TRACE"
			}
			return level
		}
	}
	return "OFF"
}

// logAtHostLevel gives each logger whose level no variable sets the host's level. A variable the user set
// keeps its value; a host at TRACE changes nothing.
func logAtHostLevel(getenv func(string) string, setenv func(string, string) error) {
	level := hostLogLevel(getenv)
	if level == "TRACE" {
		return
	}
	for _, name := range providerLogVariables {
		if getenv(name) == "" {
			_ = setenv(name, level)
		}
	}
}
