// Command pulumi-language-python is the Python language host that scripts/pulumi-cli.js builds beside the Pulumi
// CLI, ours for the same reason as language-nodejs: the module proxy here refuses the official host's module
// (github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3). It is written against the published
// LanguageRuntime protocol on the SDK's packages:
//
//   - Run: starts `python -u pulumi-language-python-exec --monitor … --engine … --project … --root_directory …
//     --stack … --pwd … --dry_run true|false --parallel N --organization … <entry point>` in the program folder,
//     with PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS set. The exec script (the `pulumi` package's entry, shipped
//     in the sdk/v3 module under python/cmd/) sits next to this executable; Python and the virtual environment
//     come from Pulumi.yaml's `runtime.options` (`virtualenv`, `toolchain`: pip, uv or poetry) through the SDK's
//     python/toolchain package, as in the official host. Exit code 32: the program has shown its error (Bail).
//   - GeneratePackage, GenerateProgram, GenerateProject: pkg/v3's codegen/python (../langhost), for
//     `pulumi package gen-sdk --language python`, `pulumi import --out` and `pulumi convert`.
//   - Handshake, GetPluginInfo, GetRequiredPackages (none), InstallDependencies (nothing: pip installs): ../langhost.
//
// Not implemented (UNIMPLEMENTED): RunPlugin (providers and policy packs in Python), type checkers, debugging,
// Pack, Link.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/cloudcost/cloudcost-pulumi/scripts/pulumi-cli/langhost"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"
)

// version is stamped by scripts/pulumi-cli.js (-ldflags -X main.version=…), the CLI's own release.
var version = "dev"

// execScript is the SDK's program launcher, expected next to this executable.
const execScript = "pulumi-language-python-exec"

type host struct {
	*langhost.Base
	exec string
}

func main() {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-python: could not find where it runs from: %v\n", err)
		os.Exit(1)
	}
	exec := filepath.Join(filepath.Dir(self), execScript)
	if _, err := os.Stat(exec); err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-python: %s must sit next to it: %v\n", execScript, err)
		os.Exit(1)
	}
	langhost.Serve("pulumi-language-python", version, func(base *langhost.Base) pulumirpc.LanguageRuntimeServer {
		base.Codegen = codegen()
		return &host{Base: base, exec: exec}
	})
}

func codegen() *langhost.Codegen {
	return &langhost.Codegen{
		Tool:        "pulumi-language-python",
		BindOptions: []pcl.BindOption{pcl.PreferOutputVersionedInvokes},
		Package: func(tool string, pkg *schema.Package, req *pulumirpc.GeneratePackageRequest,
			loader schema.ReferenceLoader,
		) (map[string][]byte, error) {
			return python.GeneratePackage(tool, pkg, req.GetExtraFiles(), loader)
		},
		Program: python.GenerateProgram,
		Project: func(dir string, project workspace.Project, program *pcl.Program, deps map[string]string) error {
			// No type checker; pip with a requirements.txt, what `pulumi new python` makes.
			return python.GenerateProject(dir, project, program, deps, "", "pip")
		},
	}
}

// pythonOptions reads Pulumi.yaml's runtime options this host honours.
func pythonOptions(info *pulumirpc.ProgramInfo) (toolchain.PythonOptions, error) {
	options := toolchain.PythonOptions{Root: info.GetRootDirectory(), ProgramDir: info.GetProgramDirectory()}
	values := info.GetOptions().AsMap()
	if value, ok := values["virtualenv"]; ok {
		path, ok := value.(string)
		if !ok {
			return options, fmt.Errorf("runtime option virtualenv must be a string, not %v", value)
		}
		options.Virtualenv = path
	}
	if value, ok := values["toolchain"]; ok {
		switch value {
		case "pip":
			options.Toolchain = toolchain.Pip
		case "uv":
			options.Toolchain = toolchain.Uv
		case "poetry":
			options.Toolchain = toolchain.Poetry
		default:
			return options, fmt.Errorf("runtime option toolchain must be pip, uv or poetry, not %v", value)
		}
	}
	if value, ok := values["typechecker"]; ok {
		return options, fmt.Errorf("runtime option typechecker (%v) is not supported by this language host", value)
	}
	return options, nil
}

// runArguments is the exec script's command line for one RunRequest (its argparse flags use underscores).
func (h *host) runArguments(req *pulumirpc.RunRequest) []string {
	args := []string{"-u", h.exec}
	add := func(flag, value string) {
		if value != "" {
			args = append(args, "--"+flag, value)
		}
	}
	add("monitor", req.GetMonitorAddress())
	add("engine", h.EngineAddress)
	add("project", req.GetProject())
	add("root_directory", req.GetInfo().GetRootDirectory())
	add("stack", req.GetStack())
	add("pwd", req.GetPwd())
	add("dry_run", strconv.FormatBool(req.GetDryRun()))
	add("parallel", strconv.Itoa(int(req.GetParallel())))
	add("organization", req.GetOrganization())
	args = append(args, req.GetInfo().GetEntryPoint())
	return append(args, req.GetArgs()...)
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	ctx, done := h.ProgramContext(ctx)
	defer done()
	options, err := pythonOptions(req.GetInfo())
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	tc, err := toolchain.ResolveToolchain(options)
	if err != nil {
		return &pulumirpc.RunResponse{Error: "could not find Python: " + err.Error()}, nil
	}
	if err := tc.ValidateVenv(ctx); err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	config, secretKeys, err := langhost.ConfigJSON(req)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	cmd, err := tc.Command(ctx, h.runArguments(req)...)
	if err != nil {
		return &pulumirpc.RunResponse{Error: "could not prepare Python: " + err.Error()}, nil
	}
	cmd.Dir = req.GetInfo().GetProgramDirectory()
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(env, "PULUMI_CONFIG="+config, "PULUMI_CONFIG_SECRET_KEYS="+secretKeys)
	return langhost.RunProgram(ctx, cmd), nil
}
