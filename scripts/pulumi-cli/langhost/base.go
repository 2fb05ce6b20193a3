package langhost

import (
	"context"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
)

// Base answers what every one of our hosts answers alike; a host embeds it and adds Run (and RunPlugin).
// Methods neither defines answer UNIMPLEMENTED, which the CLI reports as such.
type Base struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	// Codegen is the language's code generation; nil when the host generates nothing.
	Codegen *Codegen
	// EngineAddress is where the engine listens: from the command line, or from Handshake.
	EngineAddress string
	Version       string
	// Stopping is done when the host is told to stop (the engine's interrupt, or the engine gone): the programs
	// it runs are killed then, not left to finish after the host (ProgramContext).
	Stopping context.Context
}

// ProgramContext is the context a program of the run REQUEST runs under: done when the engine cancels the run
// or when the host is told to stop, whichever comes first. The caller calls the CancelFunc when the run ends.
func (b *Base) ProgramContext(request context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(request)
	if b.Stopping != nil {
		stop := context.AfterFunc(b.Stopping, cancel)
		return ctx, func() { stop(); cancel() }
	}
	return ctx, cancel
}

func (b *Base) Handshake(
	ctx context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	b.EngineAddress = req.GetEngineAddress()
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (b *Base) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: b.Version}, nil
}

// GetRequiredPackages answers none: providers are found on the PATH or in the plugin cache, and automatic
// plugin acquisition is off in every run of ours (a program's first use of a package loads its provider).
func (b *Base) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (b *Base) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

// InstallDependencies does nothing: dependencies are installed by the language's own tool (npm, pip, go)
// before any Pulumi command, and the CLI calls this after `pulumi new`/`convert`/`import` only.
func (b *Base) InstallDependencies(
	*pulumirpc.InstallDependenciesRequest, pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	return nil
}

func (b *Base) GeneratePackage(
	ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	if b.Codegen == nil {
		return b.UnimplementedLanguageRuntimeServer.GeneratePackage(ctx, req)
	}
	return b.Codegen.GeneratePackage(req)
}

func (b *Base) GenerateProgram(
	ctx context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	if b.Codegen == nil {
		return b.UnimplementedLanguageRuntimeServer.GenerateProgram(ctx, req)
	}
	return b.Codegen.GenerateProgram(req)
}

func (b *Base) GenerateProject(
	ctx context.Context, req *pulumirpc.GenerateProjectRequest,
) (*pulumirpc.GenerateProjectResponse, error) {
	if b.Codegen == nil {
		return b.UnimplementedLanguageRuntimeServer.GenerateProject(ctx, req)
	}
	return b.Codegen.GenerateProject(req)
}
