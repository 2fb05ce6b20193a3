// Command pulumi-language-nodejs is the Node.js language host that scripts/pulumi-cli.js builds beside the
// Pulumi CLI. The official host is its own Go module (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3)
// and the Go module proxy our machines reach refuses it (403), while it serves the CLI (pkg/v3) and the SDK
// (sdk/v3). So this host is ours, written against the published LanguageRuntime protocol
// (sdk/v3/proto/go, language.proto) and the SDK's own helpers; the engine that drives it is the real CLI.
//
// It does what the official host does for the programs and policy packs of this repository, no more:
//
//   - Run: starts `node <@pulumi/pulumi/cmd/run> --monitor … --engine … --project … --stack … --pwd … [--dry-run]
//     --parallel N <entry point>` with PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS set, in the program folder
//     (the argument list of cmd/run, sdk/nodejs/cmd/run/index.ts). Exit code 32 means the program already
//     showed the user what went wrong: the run "bails" without a second message.
//   - RunPlugin: policy packs (kind "analyzer") start through @pulumi/pulumi/cmd/run-policy-pack behind the
//     SDK's PolicyProxy, which learns the stack's configuration from the engine first; other plugins through
//     @pulumi/pulumi/cmd/run-plugin.
//   - GeneratePackage, GenerateProgram, GenerateProject: TypeScript, by pkg/v3's codegen/nodejs (../langhost), for
//     `pulumi package gen-sdk --language nodejs`, `pulumi import --out` and `pulumi convert`.
//   - Handshake, GetPluginInfo, GetRequiredPackages (none), InstallDependencies (nothing: npm installs): ../langhost.
//
// Not implemented (the CLI reports UNIMPLEMENTED): synchronous invokes over --sync pipes (deprecated in the
// SDK), debugging, bun, Pack and Link.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/cloudcost/cloudcost-pulumi/scripts/pulumi-cli/langhost"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	sdk "github.com/pulumi/pulumi/sdk/v3"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// version is stamped by scripts/pulumi-cli.js (-ldflags -X main.version=…), the CLI's own release.
var version = "dev"

type host struct {
	*langhost.Base
}

func main() {
	langhost.Serve("pulumi-language-nodejs", version, func(base *langhost.Base) pulumirpc.LanguageRuntimeServer {
		base.Codegen = codegen()
		return &host{Base: base}
	})
}

// codegen is TypeScript generation as the official host does it: output-versioned invokes preferred in programs.
func codegen() *langhost.Codegen {
	return &langhost.Codegen{
		Tool:        "pulumi-language-nodejs",
		BindOptions: []pcl.BindOption{pcl.PreferOutputVersionedInvokes},
		Package: func(tool string, pkg *schema.Package, req *pulumirpc.GeneratePackageRequest,
			loader schema.ReferenceLoader,
		) (map[string][]byte, error) {
			return nodejs.GeneratePackage(tool, pkg, req.GetExtraFiles(), req.GetLocalDependencies(), req.GetLocal(), loader)
		},
		Program: nodejs.GenerateProgram,
		Project: func(dir string, project workspace.Project, program *pcl.Program, deps map[string]string) error {
			return nodejs.GenerateProject(dir, project, program, deps, false, "nodejs")
		},
	}
}

// resolveModule asks node where `module` resolves from `dir`, the way the program itself will resolve it.
func resolveModule(node, dir, module string) (string, error) {
	cmd := exec.Command(node, "-p", "require.resolve("+strconv.Quote(module)+")")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s cannot be found from %s (is @pulumi/pulumi installed? run npm install there)", module, dir)
	}
	return strings.TrimSpace(string(out)), nil
}

// runArguments is cmd/run's command line for one RunRequest.
func (h *host) runArguments(req *pulumirpc.RunRequest, runPath string) []string {
	args := []string{runPath}
	add := func(flag, value string) {
		if value != "" {
			args = append(args, "--"+flag, value)
		}
	}
	add("monitor", req.GetMonitorAddress())
	add("engine", h.EngineAddress)
	add("organization", req.GetOrganization())
	add("project", req.GetProject())
	add("root-directory", req.GetInfo().GetRootDirectory())
	add("stack", req.GetStack())
	add("pwd", req.GetInfo().GetProgramDirectory())
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	add("parallel", strconv.Itoa(int(req.GetParallel())))
	args = append(args, req.GetInfo().GetEntryPoint())
	return append(args, req.GetArgs()...)
}

// programEnvironment is this process's environment plus the stack configuration, as cmd/run reads it.
func programEnvironment(req *pulumirpc.RunRequest) ([]string, error) {
	config, secretKeys, err := langhost.ConfigJSON(req)
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(), "PULUMI_CONFIG="+config, "PULUMI_CONFIG_SECRET_KEYS="+secretKeys)
	if typescript(req.GetInfo().GetOptions().AsMap()) {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	return env, nil
}

// typescript reads Pulumi.yaml's `runtime.options.typescript` (default true, as in the official host).
func typescript(options map[string]any) bool {
	if value, ok := options["typescript"].(bool); ok {
		return value
	}
	return true
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	ctx, done := h.ProgramContext(ctx)
	defer done()
	node, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: "could not find node on the PATH: " + err.Error()}, nil
	}
	dir := req.GetInfo().GetProgramDirectory()
	runPath, err := resolveModule(node, dir, "@pulumi/pulumi/cmd/run")
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	env, err := programEnvironment(req)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	cmd := exec.CommandContext(ctx, node, h.runArguments(req, runPath)...)
	cmd.Dir = dir
	cmd.Env = env
	return langhost.RunProgram(ctx, cmd), nil
}

func (h *host) RunPlugin(req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer) error {
	ctx := server.Context()
	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer closer.Close()
	node, err := exec.LookPath("node")
	if err != nil {
		return fmt.Errorf("could not find node on the PATH: %w", err)
	}
	dir := req.GetInfo().GetProgramDirectory()
	analyzer := req.GetKind() == "analyzer"
	module := "@pulumi/pulumi/cmd/run-plugin"
	if analyzer {
		module = "@pulumi/pulumi/cmd/run-policy-pack"
	}
	runPath, err := resolveModule(node, dir, module)
	if err != nil {
		return err
	}
	env := req.GetEnv()
	if typescript(req.GetInfo().GetOptions().AsMap()) {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	// A policy pack takes its folder last; any other plugin takes it first (cmd/run-policy-pack, cmd/run-plugin).
	args := []string{runPath}
	if analyzer {
		args = append(append(args, req.GetArgs()...), dir)
	} else {
		args = append(append(args, dir), req.GetArgs()...)
	}
	var proxy *sdk.PolicyProxy
	if analyzer {
		if proxy, stdout, env, err = policyProxy(ctx, stdout, env); err != nil {
			return err
		}
	}
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = req.GetPwd()
	if analyzer {
		// Policy packs have always run in their own folder (package.json, PulumiPolicy.yaml are read there).
		cmd.Dir = dir
	}
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("could not start the plugin: %w", err)
	}
	if proxy != nil {
		return proxy.Attach(ctx, cmd)
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("plugin exited: %w", err)
	}
	return closer.Close()
}

// policyProxy stands between the engine and a policy pack until the engine has told it the stack's
// configuration, which the pack process reads from its environment (sdk/v3 policy_proxy.go).
func policyProxy(ctx context.Context, stdout io.Writer, env []string) (
	*sdk.PolicyProxy, io.Writer, []string, error,
) {
	proxy, proxied, err := sdk.NewPolicyProxy(ctx, stdout)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("could not start the policy pack proxy: %w", err)
	}
	config, err := proxy.AwaitConfiguration(ctx)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("could not get the stack configuration: %w", err)
	}
	if config == nil {
		return proxy, proxied, env, nil
	}
	set := func(key, value string) {
		if value != "" {
			env = append(env, key+"="+value)
		}
	}
	set("PULUMI_NODEJS_ORGANIZATION", config.GetOrganization())
	set("PULUMI_NODEJS_PROJECT", config.GetProject())
	set("PULUMI_NODEJS_STACK", config.GetStack())
	set("PULUMI_NODEJS_DRY_RUN", strconv.FormatBool(config.GetDryRun()))
	if config.GetConfig() != nil {
		encoded, err := json.Marshal(config.GetConfig())
		if err != nil {
			return nil, nil, nil, fmt.Errorf("could not encode the stack configuration: %w", err)
		}
		set("PULUMI_CONFIG", string(encoded))
	}
	return proxy, proxied, env, nil
}
