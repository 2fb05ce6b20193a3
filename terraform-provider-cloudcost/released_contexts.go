package main

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// terraform-plugin-framework keeps every call's context until StopProvider (internal/proto6server/serve.go,
// registerContext: each call's CancelFunc is appended to a slice that only StopProvider empties, v1.19.0), and
// with it everything the context holds: terraform-plugin-go's loggers, their options and fields, about 50 KB
// per resource per command. Profiled (issue 38): 72 MB still live at the end of a `tofu plan` of 1,000
// resources, the heap growing with every call, so the garbage collector marked more on every cycle and a
// configuration of 10,000 would have held most of a gigabyte.
//
// The framework is served here with each resource and data source call given a context that lets go of its
// parent when the call returns (detachable): what the framework keeps is then a few words per call. Until then
// the context is its parent in every way, so cancellation (StopProvider, a timeout) and the loggers behave as
// before.

// releasingContexts serves inner with the per-object calls on contexts released when each call returns.
func releasingContexts(inner tfprotov6.ProviderServer) tfprotov6.ProviderServer {
	return releasingServer{inner}
}

type releasingServer struct{ tfprotov6.ProviderServer }

// call runs f on a context that is its parent until f returns, and then holds nothing of it.
func call[Req, Resp any](ctx context.Context, f func(context.Context, Req) (Resp, error), req Req) (Resp, error) {
	d := newDetachable(ctx)
	defer d.detach()
	return f(d, req)
}

func (s releasingServer) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return call(ctx, s.ProviderServer.ValidateResourceConfig, req)
}

func (s releasingServer) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return call(ctx, s.ProviderServer.UpgradeResourceState, req)
}

func (s releasingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return call(ctx, s.ProviderServer.ReadResource, req)
}

func (s releasingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return call(ctx, s.ProviderServer.PlanResourceChange, req)
}

func (s releasingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return call(ctx, s.ProviderServer.ApplyResourceChange, req)
}

func (s releasingServer) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return call(ctx, s.ProviderServer.ImportResourceState, req)
}

func (s releasingServer) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return call(ctx, s.ProviderServer.ValidateDataResourceConfig, req)
}

func (s releasingServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return call(ctx, s.ProviderServer.ReadDataSource, req)
}

// detachable is its parent context until detach, and context.Background() after.
type detachable struct {
	parent atomic.Pointer[context.Context]
}

func newDetachable(parent context.Context) *detachable {
	d := &detachable{}
	d.parent.Store(&parent)
	return d
}

var released = context.Background()

func (d *detachable) detach()                     { d.parent.Store(&released) }
func (d *detachable) get() context.Context        { return *d.parent.Load() }
func (d *detachable) Deadline() (time.Time, bool) { return d.get().Deadline() }
func (d *detachable) Done() <-chan struct{}       { return d.get().Done() }
func (d *detachable) Err() error                  { return d.get().Err() }
func (d *detachable) Value(key any) any           { return d.get().Value(key) }
