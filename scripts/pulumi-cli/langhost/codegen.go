package langhost

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Codegen is one language's code generation, on pkg/v3's generator for it (codegen/nodejs, python, go). The
// engine hands a host the schema (GeneratePackage: `pulumi package gen-sdk`) or a program in PCL
// (GenerateProgram: `pulumi import --out`, `pulumi convert`; GenerateProject: `pulumi convert`), plus the
// address of its schema loader for the packages those reference.
type Codegen struct {
	// Tool names the generator in the files' "do not edit" header ("pulumi-language-nodejs").
	Tool string
	// BindOptions are the language's PCL binding options besides strictness.
	BindOptions []pcl.BindOption
	// Package generates an SDK: file name (relative) → content.
	Package func(tool string, pkg *schema.Package, req *pulumirpc.GeneratePackageRequest,
		loader schema.ReferenceLoader) (map[string][]byte, error)
	// Program generates a program's source files.
	Program func(program *pcl.Program) (map[string][]byte, hcl.Diagnostics, error)
	// Project writes a whole project (program, Pulumi.yaml, the language's package files) into a folder.
	Project func(directory string, project workspace.Project, program *pcl.Program,
		localDependencies map[string]string) error
}

// loader connects to the engine's schema loader; close it when done.
func loader(target string) (schema.ReferenceLoader, func(), error) {
	client, err := schema.NewLoaderClient(target)
	if err != nil {
		return nil, nil, fmt.Errorf("could not reach the engine's schema loader: %w", err)
	}
	return schema.NewCachedLoader(client), func() { _ = client.Close() }, nil
}

func (c *Codegen) bindOptions(strict bool) []pcl.BindOption {
	options := append([]pcl.BindOption{}, c.BindOptions...)
	if !strict {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	return options
}

func (c *Codegen) GeneratePackage(req *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
	load, done, err := loader(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer done()
	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, fmt.Errorf("the schema is not a Pulumi package schema: %w", err)
	}
	// Dangling references are allowed as in the official hosts: the CLI has validated the schema already.
	pkg, diags, err := schema.BindSpec(spec, load, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}
	files, err := c.Package(c.Tool, pkg, req, load)
	if err != nil {
		return nil, err
	}
	if err := writeFiles(req.GetDirectory(), files); err != nil {
		return nil, err
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
}

func (c *Codegen) GenerateProgram(req *pulumirpc.GenerateProgramRequest) (*pulumirpc.GenerateProgramResponse, error) {
	load, done, err := loader(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer done()
	parser := syntax.NewParser()
	names := make([]string, 0, len(req.GetSource()))
	for name := range req.GetSource() {
		names = append(names, name)
	}
	sort.Strings(names) // the files' order decides the diagnostics' order
	for _, name := range names {
		if err := parser.ParseFile(strings.NewReader(req.GetSource()[name]), name); err != nil {
			return nil, fmt.Errorf("could not parse %s: %w", name, err)
		}
	}
	if parser.Diagnostics.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(parser.Diagnostics)}, nil
	}
	program, diags, err := pcl.BindProgram(parser.Files, load, c.bindOptions(req.GetStrict())...)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}
	if program == nil {
		return nil, errors.New("the program bound to nothing")
	}
	files, genDiags, err := c.Program(program)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProgramResponse{
		Source:      files,
		Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(append(diags, genDiags...)),
	}, nil
}

func (c *Codegen) GenerateProject(req *pulumirpc.GenerateProjectRequest) (*pulumirpc.GenerateProjectResponse, error) {
	load, done, err := loader(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer done()
	program, diags, err := pcl.BindDirectory(req.GetSourceDirectory(), load, c.bindOptions(req.GetStrict())...)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GenerateProjectResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}
	var project workspace.Project
	if err := json.Unmarshal([]byte(req.GetProject()), &project); err != nil {
		return nil, fmt.Errorf("the project is not a Pulumi.yaml document: %w", err)
	}
	if err := c.Project(req.GetTargetDirectory(), project, program, req.GetLocalDependencies()); err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProjectResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
}

// writeFiles writes generated files under DIR. A name that would leave DIR (a schema's module names become
// paths) is refused rather than written elsewhere.
func writeFiles(dir string, files map[string][]byte) error {
	for name, data := range files {
		if !filepath.IsLocal(name) {
			return fmt.Errorf("refusing to write generated file %q outside %s", name, dir)
		}
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("could not create %s: %w", filepath.Dir(path), err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return fmt.Errorf("could not write %s: %w", path, err)
		}
	}
	return nil
}
