// Command pulumi-language-go is the Go language host that scripts/pulumi-cli.js builds beside the Pulumi CLI,
// ours for the same reason as language-nodejs: the module proxy here refuses the official host's module
// (github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3). It is written against the published LanguageRuntime
// protocol on the SDK's packages:
//
//   - Run: `go build -o <temporary file>` in the program folder (or Pulumi.yaml's `runtime.options.binary`, a
//     program built beforehand), then runs it with the run's parameters in the environment the Go SDK reads
//     (PULUMI_MONITOR, PULUMI_ENGINE, PULUMI_PROJECT, PULUMI_STACK, PULUMI_CONFIG, …: sdk/v3/go/pulumi's Env*
//     names). Exit code 32: the program has shown its error (Bail).
//   - GeneratePackage, GenerateProgram, GenerateProject: pkg/v3's codegen/go (../langhost), for
//     `pulumi package gen-sdk --language go`, `pulumi import --out` and `pulumi convert`.
//   - Handshake, GetPluginInfo, GetRequiredPackages (none), InstallDependencies (nothing: go builds fetch): ../langhost.
//
// Not implemented (UNIMPLEMENTED): RunPlugin (providers in Go), debugging, Pack, Link.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cloudcost/cloudcost-pulumi/scripts/pulumi-cli/langhost"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// version is stamped by scripts/pulumi-cli.js (-ldflags -X main.version=…), the CLI's own release.
var version = "dev"

// programBuildFlags are a program's `go build` flags before -o, stamped by scripts/pulumi-cli.js: the CLI's own
// (PROGRAM_BUILD_FLAGS there), so that the packages a program shares with the CLI come from Go's build cache.
// Unstamped: no VCS stamp and no paths of this machine in the program.
var programBuildFlags = "-buildvcs=false -trimpath"

type host struct {
	*langhost.Base
}

func main() {
	langhost.Serve("pulumi-language-go", version, func(base *langhost.Base) pulumirpc.LanguageRuntimeServer {
		base.Codegen = codegen()
		return &host{Base: base}
	})
}

func codegen() *langhost.Codegen {
	return &langhost.Codegen{
		Tool:        "pulumi-language-go",
		BindOptions: []pcl.BindOption{pcl.PreferOutputVersionedInvokes},
		Package: func(tool string, pkg *schema.Package, req *pulumirpc.GeneratePackageRequest,
			_ schema.ReferenceLoader,
		) (map[string][]byte, error) {
			// Go has no overlays: a file added to a Go package would change its API unseen by the schema.
			if len(req.GetExtraFiles()) > 0 {
				return nil, errors.New("overlays are not supported for Go")
			}
			return gogen.GeneratePackage(tool, pkg, req.GetLocalDependencies())
		},
		Program: gogen.GenerateProgram,
		Project: gogen.GenerateProject,
	}
}

// programEnvironment is this process's environment plus the run's parameters, by the names the Go SDK reads.
func (h *host) programEnvironment(req *pulumirpc.RunRequest) ([]string, error) {
	config, secretKeys, err := langhost.ConfigJSON(req)
	if err != nil {
		return nil, err
	}
	env := os.Environ()
	set := func(name, value string) {
		if value != "" {
			env = append(env, name+"="+value)
		}
	}
	set(pulumi.EnvOrganization, req.GetOrganization())
	set(pulumi.EnvProject, req.GetProject())
	set(pulumi.EnvPulumiRootDirectory, req.GetInfo().GetRootDirectory())
	set(pulumi.EnvStack, req.GetStack())
	set(pulumi.EnvConfig, config)
	set(pulumi.EnvConfigSecretKeys, secretKeys)
	set(pulumi.EnvDryRun, strconv.FormatBool(req.GetDryRun()))
	set(pulumi.EnvParallel, strconv.Itoa(int(req.GetParallel())))
	set(pulumi.EnvMonitor, req.GetMonitorAddress())
	set(pulumi.EnvEngine, h.EngineAddress)
	return env, nil
}

// build compiles the program in DIR into a temporary executable; the caller removes it. The compiler's output
// goes where the program's would, so a compile error reaches the user as `go build` printed it.
func build(ctx context.Context, dir string) (string, error) {
	if matches, _ := filepath.Glob(filepath.Join(dir, "*.go")); len(matches) == 0 {
		return "", fmt.Errorf("no Go files in %s: a Go program is a main package there", dir)
	}
	out, err := os.CreateTemp("", "pulumi-go-program-*")
	if err != nil {
		return "", fmt.Errorf("could not create the program's executable: %w", err)
	}
	_ = out.Close()
	args := append(append([]string{"build"}, strings.Fields(programBuildFlags)...), "-o", out.Name(), ".")
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Stdout = struct{ *os.File }{os.Stdout}
	cmd.Stderr = struct{ *os.File }{os.Stderr}
	if err := cmd.Run(); err != nil {
		_ = os.Remove(out.Name())
		return "", fmt.Errorf("`go build` of the program failed: %w", err)
	}
	return out.Name(), nil
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	ctx, done := h.ProgramContext(ctx)
	defer done()
	env, err := h.programEnvironment(req)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	dir := req.GetInfo().GetProgramDirectory()
	program, _ := req.GetInfo().GetOptions().AsMap()["binary"].(string)
	if program != "" {
		if !filepath.IsAbs(program) {
			program = filepath.Join(dir, program)
		}
	} else {
		if program, err = build(ctx, dir); err != nil {
			return &pulumirpc.RunResponse{Error: err.Error()}, nil
		}
		defer os.Remove(program)
	}
	cmd := exec.CommandContext(ctx, program)
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	return langhost.RunProgram(ctx, cmd), nil
}
