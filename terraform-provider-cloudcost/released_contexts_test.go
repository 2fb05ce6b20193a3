package main

import (
	"context"
	"runtime"
	"testing"
	"weak"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/provider"
)

type heldKey struct{}

// heldAfterCall: whether something a call's context held is still reachable once the call has returned.
func heldAfterCall(t *testing.T, server tfprotov6.ProviderServer) bool {
	t.Helper()
	held := new([1 << 16]byte)
	pointer := weak.Make(held)
	ctx := context.WithValue(context.Background(), heldKey{}, held)
	if _, err := server.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "cloudcost_budget_alert"}); err != nil {
		t.Fatal(err)
	}
	held, ctx = nil, nil // the test's own references go before the collection
	runtime.GC()
	runtime.GC()
	defer runtime.KeepAlive(server) // the server lives on, as it does in the provider's process
	return pointer.Value() != nil
}

// The framework keeps each call's context until StopProvider; the served provider lets it go when the call
// returns (released_contexts.go). If the first check ever fails, the framework stopped keeping them: the
// wrapper can go.
func TestCallContextsAreReleased(t *testing.T) {
	framework := func() tfprotov6.ProviderServer { return providerserver.NewProtocol6(provider.New("test")())() }
	if !heldAfterCall(t, framework()) {
		t.Error("terraform-plugin-framework no longer keeps call contexts: released_contexts.go can go")
	}
	if heldAfterCall(t, releasingContexts(framework())) {
		t.Error("a call's context is still held after the call returned")
	}
}
